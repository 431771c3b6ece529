// The checkpoint of a resumable export: an append-only journal beside --out. Its first line says
// what is being exported (the identity a resumed run must match); every later line records one
// point the export reached — pages done, records and bytes of the partial file that are on disk,
// the `total` seen, and the ids exported since the previous line (what duplicate detection needs).
// A line is appended only after the partial file was fsynced, and fsynced itself, so a checkpoint
// never claims bytes that are not on disk; a line cut short by `kill -9` is ignored and cut off.
// The journal is created and opened through core/owned-file.ts: never through a planted link, and
// only when it is a regular file of ours with one link (else exit 2, naming it). Before a resumed
// export trusts its checkpoint, the numbers are checked against the partial file they vouch for
// (checkAgainstPartial, issue 26 §14).
import { rm, type FileHandle } from 'node:fs/promises';
import type { Query } from '../core/api-client.js';
import type { Context } from '../core/context.js';
import { CheckpointMismatchError, UsageError } from '../core/errors.js';
import { formatIdentity, type OutputPlan } from '../core/output-plan.js';
import { createOwned, openOwned, UnsafeFileError, type ReopenMode } from '../core/owned-file.js';
import { BufferedFileWriter } from './buffered-writer.js';

export const CHECKPOINT_KIND = 'appraisal-export-checkpoint';
const VERSION = 1;

/** What an export is; a resumed run must be the same export. */
export interface ExportIdentity {
  /** The collection path read, e.g. `/api/properties` (names the command and any parent id). */
  collection: string;
  /** Filters sent as query parameters, sorted by name. */
  filters: Readonly<Record<string, string>>;
  /** --page-size as asked (null: the service's default). */
  pageSize: number | null;
  /** --fields as given (null: whole records / default columns). */
  fields: readonly string[] | null;
  format: string;
  /** --query expression, when given. */
  query: string | null;
  origin: string;
  profile: string;
}

/** The collection a list exports, as the list runner knows it: what a resumed run must match, with the plan's format and fields. */
export interface ExportedCollection {
  /** The collection path read, e.g. `/api/properties`. */
  collection: string;
  /** The filters sent as query parameters. */
  filters: Query;
  /** --query, when given. */
  query: string | null;
}

/** The identity a checkpoint records: the collection, the plan's format and fields, the session's origin and profile. */
export async function exportIdentity(ctx: Context, plan: OutputPlan, exported: ExportedCollection): Promise<ExportIdentity> {
  const session = await ctx.session();
  const filters: Record<string, string> = {};
  for (const name of Object.keys(exported.filters).sort()) {
    const value = exported.filters[name];
    if (value === undefined || value === null) continue;
    filters[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return {
    collection: exported.collection,
    filters,
    pageSize: ctx.globals.pageSize ?? null,
    fields: plan.fields ? [...plan.fields.names] : null,
    format: formatIdentity(plan.format, plan.csv),
    query: exported.query,
    origin: session.origin,
    profile: session.profileName,
  };
}

export interface CheckpointHeader {
  kind: typeof CHECKPOINT_KIND;
  version: number;
  identity: ExportIdentity;
  startedAt: string;
}

export interface CheckpointEntry {
  /** Pages 1..page are complete in the partial file. */
  page: number;
  pages: number;
  limit: number;
  total: number;
  /** Records read from the service up to `page` (what the final count is checked against `total` with). */
  records: number;
  /** Records written to the partial file up to `bytes` (fewer than `records` under --query). */
  written: number;
  bytes: number;
  /** Ids exported since the previous entry. */
  ids: string[];
  /** How the collection was seen to change while it was read (resume-check.ts): no resume can finish it. */
  changed?: string;
}

export interface CheckpointState {
  header: CheckpointHeader;
  /** The last complete entry; undefined when no page was checkpointed yet. */
  last: CheckpointEntry | undefined;
  /** Every id recorded by complete entries. */
  ids: string[];
  /** Length of the journal's complete lines: what a resumed run keeps. */
  validBytes: number;
}

function isHeader(value: unknown): value is CheckpointHeader {
  const header = value as CheckpointHeader | null;
  return typeof header === 'object' && header !== null && header.kind === CHECKPOINT_KIND && typeof header.identity === 'object';
}

function isEntry(value: unknown): value is CheckpointEntry {
  const entry = value as CheckpointEntry | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    [entry.page, entry.pages, entry.limit, entry.total, entry.records, entry.written, entry.bytes].every(
      (n) => Number.isSafeInteger(n) && n >= 0,
    ) &&
    Array.isArray(entry.ids)
  );
}

/** The journal's complete lines. A file that is not one is a usage error. */
function parseCheckpoint(bytes: Buffer, displayName: string): CheckpointState {
  let offset = 0;
  let header: CheckpointHeader | undefined;
  let last: CheckpointEntry | undefined;
  const ids: string[] = [];
  let validBytes = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    if (end < 0) break; // a line cut short by a crash
    let value: unknown;
    try {
      value = JSON.parse(bytes.subarray(offset, end).toString('utf8'));
    } catch {
      break;
    }
    if (header === undefined) {
      if (!isHeader(value) || value.version !== VERSION) break;
      header = value;
    } else {
      if (!isEntry(value)) break;
      last = value;
      ids.push(...value.ids);
    }
    offset = end + 1;
    validBytes = offset;
  }
  if (header === undefined) {
    throw new UsageError(`${displayName} is not an appraisal export checkpoint`, {
      hint: 'remove it, or run with --restart to replace it',
    });
  }
  return { header, last, ids, validBytes };
}

/** The journal at `path` read whole, on a handle opened `how` (returned open); undefined when there is none. */
async function openCheckpointAs(
  path: string,
  displayName: string,
  how: ReopenMode,
): Promise<{ state: CheckpointState; handle: FileHandle } | undefined> {
  let handle: FileHandle | undefined;
  try {
    handle = await openOwned(path, how, { display: path });
    if (handle === undefined) return undefined;
    return { state: parseCheckpoint(await handle.readFile(), displayName), handle };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (error instanceof UnsafeFileError || error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the checkpoint ${displayName}: ${(error as Error).message}`);
  }
}

/** The journal at `path`, or undefined when there is none. A file that is not one is a usage error. */
export async function readCheckpoint(path: string, displayName: string): Promise<CheckpointState | undefined> {
  const opened = await openCheckpointAs(path, displayName, 'read');
  await opened?.handle.close().catch(() => undefined);
  return opened?.state;
}

/** A journal a resumed export may continue: read, and kept open, unchanged until the resume is decided (CheckpointJournal.resume). */
export function openCheckpoint(path: string, displayName: string): Promise<{ state: CheckpointState; handle: FileHandle } | undefined> {
  return openCheckpointAs(path, displayName, 'update');
}

/** Appends entries to a journal, each made durable before the call resolves. */
export class CheckpointJournal {
  private constructor(private readonly writer: BufferedFileWriter) {}

  /** A new journal holding only its header. */
  static async create(path: string, header: CheckpointHeader): Promise<CheckpointJournal> {
    const journal = new CheckpointJournal(new BufferedFileWriter(await createOwned(path, { mode: 0o600 }), path));
    await journal.append(header);
    return journal;
  }

  /** The journal open on `handle` (openCheckpoint), cut back to its complete lines: the next entry follows them. */
  static async resume(handle: FileHandle, path: string, validBytes: number): Promise<CheckpointJournal> {
    await handle.truncate(validBytes);
    await handle.sync();
    return new CheckpointJournal(new BufferedFileWriter(handle, path, { position: validBytes }));
  }

  async append(entry: CheckpointEntry | CheckpointHeader): Promise<void> {
    await this.writer.write(`${JSON.stringify(entry)}\n`);
    await this.writer.sync();
  }

  async close(): Promise<void> {
    await this.writer.close();
  }
}

export async function removeCheckpoint(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** How a resumed run differs from the export that wrote the checkpoint, or undefined when it does not. */
export function identityMismatch(was: ExportIdentity, now: ExportIdentity): string | undefined {
  const show = (value: unknown): string => (value === null ? 'none' : JSON.stringify(value));
  const checks: Array<[string, unknown, unknown]> = [
    ['collection', was.collection, now.collection],
    ['origin', was.origin, now.origin],
    ['profile', was.profile, now.profile],
    ['format', was.format, now.format],
    ['filters', was.filters, now.filters],
    ['--fields', was.fields, now.fields],
    ['--page-size', was.pageSize, now.pageSize],
    ['--query', was.query ?? null, now.query],
  ];
  for (const [name, before, after] of checks) {
    if (JSON.stringify(before) !== JSON.stringify(after)) return `${name} was ${show(before)}, this run has ${show(after)}`;
  }
  return undefined;
}

// The check against the partial file: the page is within the pages, the byte at `bytes-1` ends a
// record, and the records counted in the kept bytes equal `written`. A forged or damaged checkpoint
// ("page 10^12 of 10", a byte count in the middle of a record) is refused with exit 9 and the file
// is kept as it is. Counting reads the kept bytes once, in chunks; the formats are the streaming
// encoders' (json.ts: one record per line after `[`; ndjson.ts: one per line; csv.ts: a header row,
// then rows ending in CRLF, quoted fields may hold line breaks).
const CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;

/** The last byte of a complete record in each resumable format. */
const RECORD_END: Readonly<Record<string, number>> = { ndjson: NEWLINE, csv: NEWLINE, json: CLOSE_BRACE };

/** Records in the first `bytes` bytes of a partial file in `format`. */
async function countRecords(handle: FileHandle, format: string, bytes: number): Promise<number> {
  const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(bytes, 1)));
  let lines = 0;
  let quoted = false;
  for (let position = 0; position < bytes;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, bytes - position), position);
    if (bytesRead === 0) break;
    for (let i = 0; i < bytesRead; i++) {
      const byte = buffer[i];
      if (format === 'csv' && byte === QUOTE) quoted = !quoted;
      else if (byte === NEWLINE && !quoted) lines++;
    }
    position += bytesRead;
  }
  // csv: the header row is a line but no record. json: every record is preceded by one line break.
  return format === 'csv' ? Math.max(lines - 1, 0) : lines;
}

async function byteAt(handle: FileHandle, position: number): Promise<number | undefined> {
  const one = Buffer.alloc(1);
  const { bytesRead } = await handle.read(one, 0, 1, position);
  return bytesRead === 1 ? one[0] : undefined;
}

/**
 * Refuse (CheckpointMismatchError, exit 9) a checkpoint entry that the partial file open as `handle`
 * does not bear out. `shown` names the partial for the message.
 */
export async function checkAgainstPartial(handle: FileHandle, format: string, entry: CheckpointEntry, shown: string): Promise<void> {
  const refuse = (why: string) =>
    new CheckpointMismatchError(`--resume: the checkpoint of ${shown} is inconsistent (${why}); it was not resumed and is kept as it is`, {
      hint: 'look at it if it matters; pass --restart to start the export from the beginning',
    });
  if (entry.page < 1 || entry.page > entry.pages) throw refuse(`page ${entry.page} of ${entry.pages}`);
  if (entry.written > entry.records) throw refuse(`${entry.written} records written of ${entry.records} read`);
  const end = RECORD_END[format];
  if (end === undefined) throw refuse(`format ${format} is not resumable`);
  if (entry.bytes > 0 && (await byteAt(handle, entry.bytes - 1)) !== end) {
    throw refuse(`byte ${entry.bytes} is not the end of a record`);
  }
  const counted = await countRecords(handle, format, entry.bytes);
  if (counted !== entry.written) throw refuse(`it says ${entry.written} records, the file holds ${counted}`);
}
