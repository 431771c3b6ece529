// `keys rotate --audit-log PATH`: one JSON line per rotation, appended to a 0600 file. It names
// prefixes, steps and outcome — never a secret (each line also passes through the redactor).
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LocalEnvironmentError } from '../../core/errors.js';

export interface AuditStep {
  step: string;
  ok: boolean;
  ms: number;
  /** What went wrong, for a failed step (a message naming prefixes only). */
  error?: string;
}

export interface AuditEntry {
  at: string;
  profile: string;
  origin: string;
  oldPrefix: string;
  newPrefix: string | null;
  keepOld: boolean;
  steps: AuditStep[];
  /** Clean-up done after a failure, in order. */
  rollback: AuditStep[];
  outcome: string;
}

export interface AuditLog {
  readonly path: string;
  append(entry: AuditEntry | Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Open (or create, mode 0600) the audit log for appending, before the rotation starts, so a path that
 * cannot be written is exit 2 before anything changes.
 */
export async function openAuditLog(pathArg: string, cwd: string, redact: (text: string) => string): Promise<AuditLog> {
  const path = resolve(cwd, pathArg);
  let handle: FileHandle;
  try {
    handle = await open(path, 'a', 0o600);
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      throw new LocalEnvironmentError(`--audit-log ${pathArg} is not a regular file`);
    }
    // An existing file keeps its content, but others must not read what we add.
    await handle.chmod(0o600).catch(() => undefined);
  } catch (error) {
    if (error instanceof LocalEnvironmentError) throw error;
    throw new LocalEnvironmentError(
      `cannot open --audit-log ${pathArg}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let closed = false;
  return {
    path,
    async append(entry) {
      await handle.appendFile(`${redact(JSON.stringify(entry))}\n`, 'utf8');
      await handle.sync().catch(() => undefined);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}
