// `appraisal mcp --audit-log PATH`: one JSON line per tool call (time, tool, arguments, outcome,
// request ids), appended as each call ends, for whoever has to answer "what did the assistant do".
// Arguments never hold a key (no tool takes one), and every line still passes the redactor. The
// file is opened append-only without following a link, created 0600, never chmodded.
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { SecretRedactor } from '../../core/redact.js';

export interface AuditEntry {
  time: string;
  tool: string;
  arguments: Readonly<Record<string, unknown>>;
  outcome: 'ok' | 'error';
  exitCode: number;
  error?: string;
  requestIds: readonly string[];
}

export class AuditLog {
  private constructor(
    private readonly fd: number,
    private readonly redactor: SecretRedactor,
  ) {}

  static open(path: string, cwd: string, redactor: SecretRedactor): AuditLog {
    const full = resolve(cwd, path);
    let fd: number;
    try {
      fd = openSync(full, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENOENT' ? 'its directory does not exist' : (error as Error).message;
      throw new UsageError(`cannot open --audit-log ${path}: ${why}`);
    }
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      throw new UsageError(`cannot use --audit-log ${path}: it is not a regular file`);
    }
    return new AuditLog(fd, redactor);
  }

  append(entry: AuditEntry): void {
    writeSync(this.fd, `${this.redactor.redact(JSON.stringify(entry))}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
