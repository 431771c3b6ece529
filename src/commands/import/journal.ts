// The import journal, beside the results file: what each row's write did, so the same command after
// Ctrl-C, `kill -9` or a lost network skips the rows already done and sends each other one once.
// Its first line says which run it belongs to (family, input, --match, service, profile); then one
// line per finished write (`created`/`updated` with the id) and, for creates that only a journal can
// keep from being sent twice (no --match), a `sent` line before the request leaves. Lines are made
// durable in groups (group commit: one fsync for every line that arrived meanwhile), through the
// same buffered writer as export checkpoints; a line cut short by a crash is ignored and cut off.
// A journal is a file anyone who can write beside the results can edit: its ids must be record ids,
// and on resume the rows it calls done are checked against the service's records (confirmDone, in
// family-records.ts) — a row whose record the service does not hold is reported failed, never counted
// as done. One import per journal: the run lock beside the results (lockJournal).
import { rm, stat } from 'node:fs/promises';
import { UsageError } from '../../core/errors.js';
import { holdRunLock } from '../../core/file-lock.js';
import { isUuid, quoteInput } from '../../core/ids.js';
import { createOwned, openOwned, readAtMost } from '../../core/owned-file.js';
import type { ResourceFamily } from '../../core/resources.js';
import { BufferedFileWriter } from '../../output/index.js';
import type { ImportFlags } from './import-flags.js';

export const JOURNAL_KIND = 'appraisal-import-journal';
const VERSION = 1;
/** Far more than a journal of millions of rows holds; a file larger than that is not one of ours. */
const MAX_JOURNAL_BYTES = 1024 * 1024 * 1024;

/** What run a journal belongs to; a resumed run must be the same. */
export interface ImportIdentity {
  family: string;
  /** The input as an absolute path, or `-`. */
  input: string;
  /** Size and modification time of the input file (a changed file is another run). */
  inputSize: number | null;
  inputMtimeMs: number | null;
  format: string;
  /** Absent for utf-8. */
  encoding?: string;
  match: string | null;
  map: string | null;
  origin: string;
  profile: string;
}

interface Entry {
  row: number;
  status: 'created' | 'updated' | 'sent';
  id?: string;
}

export interface JournalDone {
  status: 'created' | 'updated';
  id: string;
}

export interface JournalState {
  /** Rows a write finished for. */
  done: Map<number, JournalDone>;
  /** Creates sent whose outcome the journal does not hold. */
  sent: Set<number>;
  /** Rows the journal calls done whose record the service does not hold (confirmDone). */
  gone: Map<number, JournalDone>;
}

export const EMPTY_JOURNAL: JournalState = { done: new Map(), sent: new Set(), gone: new Map() };

function isEntry(value: unknown): value is Entry {
  const entry = value as Entry | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    Number.isSafeInteger(entry.row) &&
    (entry.status === 'sent' || ((entry.status === 'created' || entry.status === 'updated') && typeof entry.id === 'string'))
  );
}

function identityMismatch(was: ImportIdentity, now: ImportIdentity): string | undefined {
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)]) as Set<keyof ImportIdentity>) {
    if (JSON.stringify(was[key]) !== JSON.stringify(now[key]))
      return `${key} was ${JSON.stringify(was[key])}, now ${JSON.stringify(now[key])}`;
  }
  return undefined;
}

/** The state an earlier, interrupted run left, and how many bytes of the journal are whole lines. */
export async function readJournal(
  path: string,
  display: string,
  identity: ImportIdentity,
): Promise<{ state: JournalState; validBytes: number } | undefined> {
  // A planted link, FIFO or someone else's file at the journal's name is refused (core/owned-file.ts).
  const handle = await openOwned(path, 'read', { display });
  if (handle === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = (await readAtMost(handle, MAX_JOURNAL_BYTES)).bytes;
  } catch (error) {
    throw new UsageError(`cannot read the import journal ${display}: ${(error as Error).message}`);
  } finally {
    await handle.close().catch(() => undefined);
  }
  const state: JournalState = { done: new Map(), sent: new Set(), gone: new Map() };
  let offset = 0;
  let validBytes = 0;
  let header = false;
  let line = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    if (end < 0) break;
    line++;
    let value: unknown;
    try {
      value = JSON.parse(bytes.subarray(offset, end).toString('utf8'));
    } catch {
      break;
    }
    if (!header) {
      const head = value as { kind?: unknown; version?: unknown; identity?: ImportIdentity } | null;
      if (head?.kind !== JOURNAL_KIND || head.version !== VERSION || typeof head.identity !== 'object')
        throw new UsageError(`${display} is not an appraisal import journal`, { hint: 'remove it, or choose another --results' });
      const mismatch = identityMismatch(head.identity, identity);
      if (mismatch !== undefined)
        throw new UsageError(`${display} belongs to another import (${mismatch})`, {
          hint: 'run the same command to resume that import, choose another --results for this one, or remove the journal to start over',
        });
      header = true;
    } else {
      if (!isEntry(value)) break;
      // A whole line whose id is not a record id was not written by an import: refused, not skipped past.
      if (value.id !== undefined && !isUuid(value.id))
        throw new UsageError(
          `${display}, line ${line}: ${quoteInput(value.id)} is not a record id: the journal was not written by an import`,
          {
            hint: 'remove it to start over (rows already created are then matched again with --match, or created again without it)',
          },
        );
      if (value.status === 'sent') state.sent.add(value.row);
      else {
        state.done.set(value.row, { status: value.status, id: value.id! });
        state.sent.delete(value.row);
      }
    }
    offset = end + 1;
    validBytes = offset;
  }
  if (!header) return undefined;
  return { state, validBytes };
}

/** Appends entries; `record` resolves once its line is on disk. */
export class ImportJournal {
  private queue: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private flushing: Promise<void> | undefined;

  private constructor(private readonly writer: BufferedFileWriter) {}

  /** A new journal, or an existing one cut back to its whole lines. */
  static async open(path: string, display: string, identity: ImportIdentity, validBytes?: number): Promise<ImportJournal> {
    if (validBytes !== undefined) {
      const handle = await openOwned(path, 'update', { display });
      if (handle) {
        // Continued on the same handle: the writer writes from validBytes on.
        await handle.truncate(validBytes);
        return new ImportJournal(new BufferedFileWriter(handle, display, { position: validBytes }));
      }
    }
    // A journal without a whole header line (a crash at the very start) is replaced.
    await rm(path, { force: true });
    const journal = new ImportJournal(new BufferedFileWriter(await createOwned(path, { mode: 0o600 }), display));
    await journal.line({ kind: JOURNAL_KIND, version: VERSION, identity, startedAt: new Date().toISOString() });
    return journal;
  }

  record(row: number, status: Entry['status'], id?: string): Promise<void> {
    return this.line(id === undefined ? { row, status } : { row, status, id });
  }

  private line(value: unknown): Promise<void> {
    this.queue.push(`${JSON.stringify(value)}\n`);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.flushing ??= this.drain();
    return done;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const lines = this.queue.join('');
      const waiters = this.waiters;
      this.queue = [];
      this.waiters = [];
      try {
        await this.writer.write(lines);
        await this.writer.sync();
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.flushing = undefined;
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.writer.close();
  }
}

/** One import per journal: the run lock beside the results file. */
export function lockJournal(results: NonNullable<ImportFlags['results']>): Promise<() => Promise<void>> {
  return holdRunLock(results.lock, {
    target: `--results ${results.display}`,
    busy: `another import is using the journal of ${results.display}`,
    meanwhile: 'wait for it to finish, or choose another --results',
  });
}

/** The run a journal belongs to, but for the service (the session's origin and profile), which the run adds. */
export async function journalIdentity(family: ResourceFamily, flags: ImportFlags): Promise<Omit<ImportIdentity, 'origin' | 'profile'>> {
  const info = flags.inputPath ? await stat(flags.inputPath).catch(() => undefined) : undefined;
  return {
    family: family.name,
    input: flags.inputPath ?? '-',
    inputSize: info?.size ?? null,
    inputMtimeMs: info ? Math.floor(info.mtimeMs) : null,
    format: flags.format,
    // Only when not the default, so a journal written before --encoding existed still resumes.
    ...(flags.encoding !== 'utf-8' ? { encoding: flags.encoding } : {}),
    match: flags.match?.join('.') ?? null,
    map: flags.mapDisplay ?? null,
  };
}

export async function removeJournal(path: string): Promise<void> {
  await rm(path, { force: true });
}
