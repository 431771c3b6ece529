// `--audit-log PATH` of `keys rotate` (and of `keys scan --revoke`, which revokes too): one JSON line
// per rotation or revocation, appended. It names prefixes, steps and outcome — never a secret (each
// line also passes through the redactor). Not `keys audit` (audit.ts), which reports on keys.
// The path may be in a directory others can write (a cron job's log directory; issue 26 §3): a new
// log is created O_EXCL|O_NOFOLLOW with mode 0600; an existing one is opened O_APPEND|O_NOFOLLOW and
// must be a regular file of ours with one link (core/owned-file.ts), and keeps its mode — the CLI
// never chmods a file it did not create.
import type { FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LocalEnvironmentError } from '../../../core/errors.js';
import { createOwned, openOwned, UnsafeFileError } from '../../../core/owned-file.js';
import { fileErrorWords } from '../../../core/file-error-words.js';

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

/** A new log (mode 0600), or the existing one if it is a plain file of ours; undefined if it vanished. */
async function openForAppend(path: string, shown: string): Promise<FileHandle | undefined> {
  try {
    return await createOwned(path, { mode: 0o600, append: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return openOwned(path, 'append', { display: shown });
}

/**
 * Open (or create, mode 0600) the audit log for appending, before the rotation starts, so a path that
 * cannot be written is exit 2 before anything changes.
 */
export async function openAuditLog(pathArg: string, cwd: string, redact: (text: string) => string): Promise<AuditLog> {
  const path = resolve(cwd, pathArg);
  const shown = `--audit-log ${pathArg}`;
  let handle: FileHandle | undefined;
  try {
    // Created meanwhile by someone else, or removed meanwhile: one more try settles it.
    handle = (await openForAppend(path, shown)) ?? (await openForAppend(path, shown));
    if (handle === undefined) throw Object.assign(new Error('removed while being opened'), { code: 'ENOENT' });
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot open ${shown}: ${fileErrorWords(error)}`, {
      cause: error,
    });
  }
  const log = handle;
  let closed = false;
  return {
    path,
    async append(entry) {
      await log.appendFile(`${redact(JSON.stringify(entry))}\n`, 'utf8');
      await log.sync().catch(() => undefined);
    },
    async close() {
      if (closed) return;
      closed = true;
      await log.close();
    },
  };
}
