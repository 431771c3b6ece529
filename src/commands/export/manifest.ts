// manifest.json of a snapshot directory: what was exported, from where, when, and for each family
// the file with its record count, the service's `total`, its size and sha256, the filters sent and
// the `since` watermark. A later incremental run reads `startedAt` back from it (--since-last).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { openOwned, UnsafeFileError } from '../../core/owned-file.js';
import type { FilePart } from '../../output/index.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_KIND = 'appraisal-export';
export const MANIFEST_VERSION = 1;

export interface FamilyEntry {
  family: string;
  /** File name inside the directory. */
  file: string;
  records: number;
  /** `pagination.total` the service reported (the sum over clients for contacts). */
  total: number | null;
  /** The file's size; with parts, their sum. */
  bytes: number;
  /** The file's sha256; null with parts (each part has its own). */
  sha256: string | null;
  /** --split-rows/--split-size: the numbered parts `file` was split into, in order. */
  parts?: FilePart[];
  /** Query parameters sent. */
  filters: Readonly<Record<string, string>>;
  /** --fields for this family: its records hold only these (csv: these columns); absent, every field. */
  fields?: readonly string[];
  /** The `updatedSince` watermark this family was read with; null when it holds every record. */
  since: string | null;
  /** Why an incremental run exported this family in full (its operation publishes no updatedSince). */
  full?: string;
  /** Integrity warnings the export accepted (--allow-partial, a collection that changed while read). */
  warnings?: readonly string[];
}

export interface Incremental {
  /** The previous snapshot directory (--since-last), as given. */
  sinceLast: string | null;
  /** The previous run's start (from its manifest) or --since. */
  since: string;
  overlap: string;
  /** since − overlap: records updated at or after it were asked for. */
  watermark: string;
}

export interface Manifest {
  kind: typeof MANIFEST_KIND;
  version: number;
  cliVersion: string;
  origin: string;
  profile: string;
  environment: string;
  format: string;
  startedAt: string;
  finishedAt: string;
  incremental: Incremental | null;
  families: FamilyEntry[];
}

/**
 * Size and sha256 of a finished file, read back from disk: what the manifest vouches for is what is
 * there. It must be a regular file of ours with one link (core/owned-file.ts), else UnsafeFileError.
 */
export async function fileDigest(path: string): Promise<{ bytes: number; sha256: string }> {
  const handle = await openOwned(path, 'read');
  if (handle === undefined) throw new UnsafeFileError(path, 'is missing');
  try {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    return { bytes, sha256: hash.digest('hex') };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The manifest of a previous snapshot (--since-last), checked enough to trust its startedAt. */
export async function readManifest(dir: string, given: string): Promise<Manifest> {
  const path = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `--since-last ${given}: no ${MANIFEST_FILE} there (is it a finished \`appraisal export\` directory?)`
        : `--since-last ${given}: cannot read ${MANIFEST_FILE} (${code ?? (error as Error).message})`,
    );
  }
  let value: Partial<Manifest>;
  try {
    value = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new UsageError(`--since-last ${given}: ${MANIFEST_FILE} is not valid JSON`);
  }
  if (
    value?.kind !== MANIFEST_KIND ||
    typeof value.startedAt !== 'string' ||
    Number.isNaN(Date.parse(value.startedAt)) ||
    typeof value.origin !== 'string'
  ) {
    throw new UsageError(`--since-last ${given}: ${MANIFEST_FILE} is not an appraisal export manifest with a startedAt time`);
  }
  return value as Manifest;
}
