// Export files with checksums, optionally split into numbered parts: the sink of a plan in parts
// (`--split-rows N` / `--split-size 500MiB` on list commands, core/sink-plan.ts), and of each family
// of `appraisal export --dir --split-*` (its plan per file). sinks.ts opens it from the plan;
// `files()` lists what was written: [{ file: 'props-0001.ndjson', records, bytes, sha256 }, …].
//
// With `split`, records go to `props-0001.ndjson`, `props-0002.ndjson`, … beside `path` (4 digits,
// more past 9999), each complete in itself: csv parts repeat the header, json parts are each one
// array, ndjson parts end on a record boundary. A part ends before the record that would take it past
// `rows` records or `bytes` bytes (header and closing bracket included); a record is never cut, and a
// record larger than `bytes` goes alone in its part. No records still give one (empty) part.
//
// Atomic like --out: every part is written to a hidden temp file and fsynced; only when the whole
// export succeeded are they renamed into place, then stale parts of a previous run (from its
// manifest) removed, then `props.ndjson.manifest.json` written atomically — last, so a set of parts without
// its manifest is never taken for a complete one. A failure removes every temp file: nothing appears.
// One run at a time per PATH: the same lock beside it as a resumable --out (exit 2 while held).
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { syncDirectory, writeFileAtomic } from '../core/atomic-file.js';
import type { OutputFormat } from '../core/global-options.js';
import type { CsvStyle, SplitLimits } from '../core/output-plan.js';
import { readOwned } from '../core/owned-file.js';
import { writeFailure } from './buffered-writer.js';
import { createTempBeside, finalMode, type TempFile } from './atomic-out-file.js';
import { lockOut, partialPaths } from './resumable.js';
import type { ListEncoder } from './encoder.js';
import type { FilePart, RecordSink } from './sink.js';

export type { FilePart } from './sink.js';

export const SPLIT_MANIFEST_KIND = 'appraisal-split-manifest';
/** Far more than the manifest of 100,000 parts. */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

export type { SplitLimits } from '../core/output-plan.js';

export interface FilesTarget {
  /** Absolute path of the export: the file itself, or what the parts are named after. */
  path: string;
  /** The path as the user gave it, for messages. */
  displayPath: string;
  format: OutputFormat;
  /** How csv parts are written (--delimiter, --bom): named in the manifest. */
  csv: CsvStyle;
  split: SplitLimits;
  /**
   * Mode for the file(s): the mode of the file at `path` when there is one (a part is never wider
   * than the file it stands beside), else 0644 less the umask. Private (0600, or narrower) while written.
   */
  mode?: number | undefined;
}

/** `props.ndjson`, 3 → `props-0003.ndjson` (same directory). */
export function partPath(path: string, index: number): string {
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  return `${stem}-${String(index).padStart(4, '0')}${ext}`;
}

/**
 * `props.ndjson` → `props.ndjson.manifest.json` (same directory). The whole name, extension
 * included: `props.csv` and `props.json` split in one directory must not share a manifest.
 */
export function manifestPath(path: string): string {
  return `${path}.manifest.json`;
}

/** The parts a previous manifest at `manifest` lists, by base name; none when it is absent or not one. */
async function previousParts(manifest: string, path: string): Promise<string[]> {
  let parsed: unknown;
  try {
    // Read without following a link, a FIFO never waited on: a planted one counts as no manifest.
    parsed = JSON.parse((await readOwned(manifest, MANIFEST_MAX_BYTES, { refuseLonger: true })) ?? '');
  } catch {
    return [];
  }
  const parts =
    (parsed as { kind?: unknown; parts?: unknown } | null)?.kind === SPLIT_MANIFEST_KIND ? (parsed as { parts: unknown }).parts : undefined;
  if (!Array.isArray(parts)) return [];
  // Only names this export would give its own parts: a manifest never makes us remove other files.
  const ext = extname(path);
  const stem = basename(path).slice(0, basename(path).length - ext.length);
  const own = (name: unknown): name is string =>
    typeof name === 'string' &&
    name.startsWith(`${stem}-`) &&
    name.endsWith(ext) &&
    /^\d{4,}$/.test(name.slice(stem.length + 1, name.length - ext.length));
  return parts.map((part: { file?: unknown } | null) => part?.file).filter(own);
}

interface OpenPart {
  temp: TempFile;
  /** Where it goes. */
  path: string;
  records: number;
}

interface DonePart {
  temp: TempFile;
  path: string;
  summary: FilePart;
}

export interface FilesSink extends RecordSink {
  /** The files written, once finish() resolved. */
  files(): FilePart[];
  /** What the notice names: `props-0001.ndjson … props-0003.ndjson (3 parts, manifest props.ndjson.manifest.json)`. */
  describe(): string;
}

/** Write records to `target` with a fresh encoder per file (each part is a complete document). */
export function openFilesSink(target: FilesTarget, newEncoder: () => Promise<ListEncoder>): FilesSink {
  const { split } = target;
  const dir = dirname(target.path);
  const shownDir = dirname(target.displayPath);
  const shown = (file: string) => (shownDir === '.' ? file : join(shownDir, file));
  const done: DonePart[] = [];
  let encoder: ListEncoder | undefined;
  let current: OpenPart | undefined;
  let placed = false;
  // The --out lock (as resumable.ts takes it): two split runs to one PATH would mix their parts.
  let release: (() => Promise<void>) | undefined;

  const openPart = async (): Promise<OpenPart> => {
    const path = partPath(target.path, done.length + 1);
    encoder = await newEncoder();
    const temp = await createTempBeside(path, target.displayPath, { hash: true, mode: target.mode });
    current = { temp, path, records: 0 };
    await temp.writer.write(encoder.begin());
    return current;
  };
  const closePart = async (part: OpenPart): Promise<void> => {
    await part.temp.writer.write(encoder!.end(part.records));
    await part.temp.writer.complete(finalMode(target));
    done.push({
      temp: part.temp,
      path: part.path,
      summary: { file: basename(part.path), records: part.records, bytes: part.temp.writer.bytes, sha256: part.temp.writer.sha256() },
    });
    current = undefined;
  };
  /** Whether `text` (one record) would take `part` past a limit. A part's first record always fits. */
  const overflows = (part: OpenPart, text: string): boolean => {
    if (part.records === 0) return false;
    if (split.rows !== undefined && part.records >= split.rows) return true;
    if (split.bytes === undefined) return false;
    const closing = Buffer.byteLength(encoder!.end(part.records + 1), 'utf8');
    return part.temp.writer.bytes + Buffer.byteLength(text, 'utf8') + closing > split.bytes;
  };

  const writeManifest = async (): Promise<void> => {
    const files = done.map((part) => part.summary);
    const manifest = {
      kind: SPLIT_MANIFEST_KIND,
      version: 1,
      format: target.format,
      ...(target.format === 'csv' ? { csv: target.csv } : {}),
      records: files.reduce((sum, part) => sum + part.records, 0),
      bytes: files.reduce((sum, part) => sum + part.bytes, 0),
      splitRows: split.rows ?? null,
      splitSize: split.bytes ?? null,
      parts: files,
    };
    await writeFileAtomic(manifestPath(target.path), `${JSON.stringify(manifest, null, 2)}\n`, { mode: finalMode(target) });
  };

  return {
    async begin() {
      release = await lockOut(target.displayPath, partialPaths(target.path).lock);
      await openPart();
      return true;
    },
    async record(record) {
      let part = current ?? (await openPart());
      let text = encoder!.record(record);
      if (overflows(part, text)) {
        await closePart(part);
        part = await openPart();
        // Encoded again: the first record of a json part opens its array.
        text = encoder!.record(record);
      }
      await part.temp.writer.write(text);
      part.records++;
      return true;
    },
    async end() {
      await closePart(current ?? (await openPart()));
    },
    async finish() {
      const manifest = manifestPath(target.path);
      try {
        const stale = await previousParts(manifest, target.path);
        // The old manifest goes first: from here until the new one is written, no manifest claims
        // a set of parts that is half old, half new.
        await rm(manifest, { force: true });
        for (const part of done) {
          await rename(part.temp.path, part.path);
          part.temp.placed();
        }
        placed = true;
        const current = new Set(done.map((part) => part.summary.file));
        for (const name of stale) if (!current.has(name)) await rm(join(dir, name), { force: true });
        await syncDirectory(dir);
        await writeManifest();
      } catch (error) {
        throw writeFailure(shown(basename(manifest)), error);
      }
      await release?.();
    },
    async discard() {
      const parts: TempFile[] = done.map((part) => part.temp);
      if (current) parts.push(current.temp);
      current = undefined;
      if (!placed) for (const temp of parts) await temp.remove();
      await release?.();
    },
    files: () => done.map((part) => part.summary),
    describe() {
      const first = shown(done[0]?.summary.file ?? basename(partPath(target.path, 1)));
      const range = done.length > 1 ? `${first} … ${done.at(-1)!.summary.file}` : first;
      const manifest = `, manifest ${shown(basename(manifestPath(target.path)))}`;
      return `${range} (${done.length} ${done.length === 1 ? 'part' : 'parts'}${manifest})`;
    },
  };
}
