// What a loaded description is, and what a run falls back to when discovery fails: the last good
// copy from the cache, else the bundled model (issue 26 item 19: discovery never blocks the command
// it is for). load.ts decides which; this file builds the answer and says the one warning line.
import type { Context } from '../context.js';
import type { AppError } from '../errors.js';
import type { CacheEntry } from './cache.js';
import { readContract, type PublishedContract } from './document.js';

export const BUNDLED_SOURCE = "the CLI's own model (bundled openapi.json)";

export type DescriptionKind = 'option' | 'profile' | 'service' | 'bundled';

export interface LoadedDescription {
  contract: PublishedContract;
  /** Where it came from, for messages: a URL, a file path, or BUNDLED_SOURCE. */
  source: string;
  kind: DescriptionKind;
  /** True when no download happened in this run (a fresh cache, a 304, or the last good copy). */
  fromCache: boolean;
  fetchedAt: string | undefined;
  checkedAt: string | undefined;
  etag: string | undefined;
  /** The cached copy this run replaced, for `spec diff`. */
  previous?: PublishedContract | undefined;
  /** The service was asked in this run and answered that the cached copy is current (304). */
  revalidated?: boolean | undefined;
  /** Discovery failed in this run (this is the last good copy or the bundled model instead): why. */
  discoveryError?: AppError | undefined;
}

let bundledContract: PublishedContract | undefined;

/** The bundled model, parsed once (only when a command needs it). */
export async function bundledDescription(): Promise<PublishedContract> {
  if (!bundledContract) {
    const module = (await import('../../../openapi.json', { with: { type: 'json' } })) as { default: unknown };
    bundledContract = readContract(module.default);
  }
  return bundledContract;
}

export function fromEntry(entry: CacheEntry, contract: PublishedContract): LoadedDescription {
  return {
    contract,
    source: entry.kind === 'bundled' ? BUNDLED_SOURCE : entry.url!,
    kind: entry.kind === 'bundled' ? 'bundled' : entry.configured ? 'profile' : 'service',
    fromCache: true,
    fetchedAt: entry.fetchedAt,
    checkedAt: entry.checkedAt,
    etag: entry.etag,
  };
}

export async function contractOf(entry: CacheEntry): Promise<PublishedContract> {
  return entry.kind === 'bundled' ? bundledDescription() : readContract(entry.document);
}

/** A failure as one line of a warning: without the request (the warning says what was asked), no line breaks, bounded. */
function reasonOf(error: AppError): string {
  const text = error.message
    .replace(/^(?:GET|HEAD) \S+: /, '')
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Discovery failed: one warning line (sanitised by io.warn), then the last good copy, else the bundled model. */
export async function discoveryFailed(
  ctx: Context,
  error: AppError,
  entry: CacheEntry | undefined,
  options: { command?: string | undefined; failures?: 'warn' | 'report' | 'throw' | undefined },
): Promise<LoadedDescription> {
  const copy = entry?.kind === 'service' ? entry : undefined;
  if (options.failures !== 'report') {
    const forCommand = options.command ? ` for \`appraisal ${options.command}\`` : '';
    const using = copy ? `the copy of ${copy.fetchedAt}` : BUNDLED_SOURCE;
    ctx.io.warn(`while reading the service description${forCommand}: ${reasonOf(error)}; going on with ${using}`);
  }
  if (copy) return { ...fromEntry(copy, await contractOf(copy)), discoveryError: error };
  return {
    contract: await bundledDescription(),
    source: BUNDLED_SOURCE,
    kind: 'bundled',
    fromCache: false,
    fetchedAt: undefined,
    checkedAt: undefined,
    etag: undefined,
    discoveryError: error,
  };
}
