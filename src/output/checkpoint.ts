// The checkpoint of a resumable export: an append-only journal beside --out. Its first line says
// what is being exported (the identity a resumed run must match); every later line records one
// point the export reached — pages done, records and bytes of the partial file that are on disk,
// the `total` seen, and the ids exported since the previous line (what duplicate detection needs).
// A line is appended only after the partial file was fsynced, and fsynced itself, so a checkpoint
// never claims bytes that are not on disk; a line cut short by `kill -9` is ignored and cut off.
// The journal is created and re-opened through core/owned-file.ts: never through a planted link, and
// only when it is a regular file of ours with one link (else exit 2, naming it).
import { rm, type FileHandle } from 'node:fs/promises';
import type { Query } from '../core/api-client.js';
import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import type { OutputPlan } from '../core/output-plan.js';
import { createOwned, openOwned, UnsafeFileError } from '../core/owned-file.js';

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
    format: plan.format,
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

/** The journal at `path`, or undefined when there is none. A file that is not one is a usage error. */
export async function readCheckpoint(path: string, displayName: string): Promise<CheckpointState | undefined> {
  let bytes: Buffer;
  try {
    const handle = await openOwned(path, 'read', { display: path });
    if (handle === undefined) return undefined;
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close().catch(() => undefined);
    }
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new UsageError(`cannot read the checkpoint ${displayName}: ${(error as Error).message}`);
  }
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

/** Appends entries to a journal, each made durable before the call resolves. */
export class CheckpointJournal {
  private constructor(private readonly handle: FileHandle) {}

  /** A new journal holding only its header. */
  static async create(path: string, header: CheckpointHeader): Promise<CheckpointJournal> {
    const handle = await createOwned(path, { mode: 0o600, append: true });
    const journal = new CheckpointJournal(handle);
    await journal.appendLine(header);
    return journal;
  }

  /** An existing journal, cut back to its complete lines. */
  static async reopen(path: string, validBytes: number): Promise<CheckpointJournal> {
    const gone = () => new UnsafeFileError(path, 'disappeared while being resumed');
    const handle = await openOwned(path, 'update');
    if (handle === undefined) throw gone();
    try {
      await handle.truncate(validBytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const appending = await openOwned(path, 'append');
    if (appending === undefined) throw gone();
    return new CheckpointJournal(appending);
  }

  async append(entry: CheckpointEntry): Promise<void> {
    await this.appendLine(entry);
  }

  private async appendLine(value: unknown): Promise<void> {
    await this.handle.write(`${JSON.stringify(value)}\n`);
    await this.handle.sync();
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
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
