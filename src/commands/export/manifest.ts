// manifest.json of a snapshot directory: what was exported, from where, when, and for each family
// the file with its record count, the service's `total`, its size and sha256, the filters sent and
// the `since` watermark. A later incremental run reads `serviceStartedAt` back from it (--since-last):
// the run's start by the service's clock, which stamps the `updatedAt` it is compared with
// (`startedAt` and `finishedAt` stay this machine's clock, for people). The previous manifest sits
// where others may write: it is read through core/owned-file.ts (no link followed, no FIFO waited
// on, a regular file of ours), at most MANIFEST_MAX_BYTES.
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { formatDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import type { OutputFormat } from '../../core/global-options.js';
import { formatIdentity, type CsvStyle } from '../../core/output-plan.js';
import { openOwned, readOwned, UnsafeFileError } from '../../core/owned-file.js';
import type { FilePart } from '../../output/index.js';
import type { ExportPlan } from './plan.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_KIND = 'appraisal-export';
export const MANIFEST_VERSION = 1;
/** A manifest lists a file per family, or each of its parts: far below this. */
export const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

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
  /** The previous run's start by the service's clock (its manifest's serviceStartedAt) or --since. */
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
  /** A csv snapshot's cell separator and byte-order mark (--delimiter, --bom). */
  csv?: CsvStyle;
  /** This machine's clock when the run began. */
  startedAt: string;
  /**
   * The service's clock when the run began (from its Date header): what --since-last reads. Absent
   * in manifests of an appraisal from before it was written.
   */
  serviceStartedAt?: string;
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

const isTime = (value: unknown): value is string => typeof value === 'string' && Number.isFinite(Date.parse(value));

/** The manifest of a previous snapshot (--since-last), checked enough to trust its start. */
export async function readManifest(dir: string, given: string): Promise<Manifest> {
  const path = join(dir, MANIFEST_FILE);
  let text: string | undefined;
  try {
    text = await readOwned(path, MANIFEST_MAX_BYTES, { refuseLonger: true, display: `--since-last ${join(given, MANIFEST_FILE)}` });
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    // `--since-last old/manifest.json`: the manifest's own path where its directory is expected.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new UsageError(
        `--since-last ${given} is not a directory: it names the previous snapshot's directory, the one holding ${MANIFEST_FILE}`,
        {
          ...(basename(given) === MANIFEST_FILE ? { hint: `give --since-last ${dirname(given)}` } : {}),
        },
      );
    }
    throw new UsageError(`--since-last ${given}: cannot read ${MANIFEST_FILE} (${fileErrorWords(error)})`);
  }
  if (text === undefined)
    throw new UsageError(`--since-last ${given}: no ${MANIFEST_FILE} there (is it a finished \`appraisal export\` directory?)`);
  let value: Partial<Manifest>;
  try {
    value = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new UsageError(`--since-last ${given}: ${MANIFEST_FILE} is not valid JSON`);
  }
  if (
    value?.kind !== MANIFEST_KIND ||
    !isTime(value.startedAt) ||
    (value.serviceStartedAt !== undefined && !isTime(value.serviceStartedAt)) ||
    typeof value.origin !== 'string'
  ) {
    throw new UsageError(`--since-last ${given}: ${MANIFEST_FILE} is not an appraisal export manifest with a startedAt time`);
  }
  return value as Manifest;
}

/**
 * How the snapshot a manifest describes differs from the one this run would write, or undefined when
 * it is the same export (then `--resume` finds it complete: the nightly cron line run twice a day).
 * What the manifest records is compared: origin, profile, format, families, fields per family,
 * whether it is split, and the incremental start.
 */
export function snapshotDifference(
  previous: Partial<Manifest>,
  plan: ExportPlan,
  session: { origin: string; profile: string },
): string | undefined {
  const entries = Array.isArray(previous.families) ? previous.families : [];
  const since = plan.since;
  const incremental =
    since === undefined
      ? null
      : {
          sinceLast: since.kind === 'since-last' ? since.given : null,
          ...(since.kind === 'since' ? { since: new Date(Date.parse(since.at)).toISOString() } : {}),
          overlap: formatDuration(plan.overlapMs),
        };
  const recorded = previous.incremental
    ? {
        sinceLast: previous.incremental.sinceLast,
        ...(previous.incremental.sinceLast === null ? { since: previous.incremental.since } : {}),
        overlap: previous.incremental.overlap,
      }
    : null;
  const checks: Array<[string, unknown, unknown]> = [
    ['origin', previous.origin, session.origin],
    ['profile', previous.profile, session.profile],
    // A manifest written before csv styles were recorded holds the default one.
    [
      'format',
      typeof previous.format === 'string'
        ? formatIdentity(previous.format as OutputFormat, previous.csv ?? { delimiter: ',', bom: false })
        : null,
      formatIdentity(plan.format, plan.csv),
    ],
    ['families', entries.map((entry) => entry.family), plan.families.map((family) => family.name)],
    ['fields', entries.map((entry) => entry.fields ?? null), plan.families.map((family) => plan.fields[family.name] ?? null)],
    ['split', entries.some((entry) => entry.parts !== undefined), plan.split !== undefined],
    ['incremental', recorded, incremental],
  ];
  for (const [name, before, after] of checks) {
    if (JSON.stringify(before) !== JSON.stringify(after))
      return `${name} was ${JSON.stringify(before)}, this run has ${JSON.stringify(after)}`;
  }
  return undefined;
}
