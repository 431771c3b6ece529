// The options of startMockServer and their defaults (the same as `appraisal mock`'s flags).
import type { ResourceFamily } from '../model/families.js';
import { DESCRIPTION_VARIANTS, type DescriptionVariant } from './description/document.js';

export interface MockServerOptions {
  /** TCP port; 0 picks a free one. Default 4000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Plain HTTP instead of HTTPS. */
  http?: boolean;
  /** Seeded records per family. Default 250. */
  records?: number;
  /** Seed of the deterministic data. Default 1. */
  seed?: number;
  /** Delay before answering every /api request, in milliseconds. Default 0. */
  latencyMs?: number;
  /** Requests per second per key (token bucket); 0 or undefined: no limit. */
  rateLimit?: number;
  /** The admin key's secret (apk_<8>_<32>); generated when absent. */
  adminKey?: string;
  /** Called with one line per finished request (the --log request log). */
  log?: (line: string) => void;
  /** Called with unexpected errors (they are answered with a 500; the mock keeps running). */
  onInternalError?: (error: unknown) => void;
  /** Largest upload accepted, in bytes. Default 2 GiB. */
  maxUploadBytes?: number;
  /** Where the mock makes its temp dir. Default os.tmpdir(). */
  tmpRoot?: string;
  /** Serve each collection page's bytes again until a write changes anything (benchmarks). */
  prerender?: boolean;
  /** Which published description (and matching routes) to serve. Default `standard`. */
  description?: DescriptionVariant;
  /**
   * Run the service's clock this many seconds off the machine's (negative: behind), as POST
   * /__mock/clock does: its Date header, the timestamps it writes and its expiry checks. Default 0.
   */
  clockOffsetSeconds?: number;
  /**
   * The service model it serves and the description it publishes (tests: a model with a family the
   * real one lacks, and a description with its paths). Default: src/model's families and openapi.json.
   */
  model?: { families: readonly ResourceFamily[]; document: unknown };
}

export interface ResolvedOptions {
  port: number;
  host: string;
  http: boolean;
  records: number;
  seed: number;
  latencyMs: number;
  rateLimit: number;
  adminKey: string | undefined;
  maxUploadBytes: number;
  description: DescriptionVariant;
  clockOffsetMs: number;
}

export class MockOptionError extends Error {}

/** The furthest a clock offset goes either way (as POST /__mock/clock). */
const TEN_YEARS_S = 10 * 365 * 86_400;

function whole(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < min || resolved > max)
    throw new MockOptionError(`${name} must be a whole number between ${min} and ${max}, got ${resolved}`);
  return resolved;
}

function description(value: string | undefined): DescriptionVariant {
  const resolved = value ?? 'standard';
  if (!(DESCRIPTION_VARIANTS as readonly string[]).includes(resolved))
    throw new MockOptionError(`description must be one of ${DESCRIPTION_VARIANTS.join(', ')}, got "${resolved}"`);
  return resolved as DescriptionVariant;
}

export function resolveOptions(options: MockServerOptions): ResolvedOptions {
  return {
    port: whole('port', options.port, 4000, 0, 65535),
    host: options.host ?? '127.0.0.1',
    http: options.http ?? false,
    records: whole('records', options.records, 250, 0, 10_000_000),
    seed: whole('seed', options.seed, 1, 0, 4_294_967_295),
    latencyMs: whole('latency', options.latencyMs, 0, 0, 600_000),
    rateLimit: whole('rate limit', options.rateLimit, 0, 0, 1_000_000),
    adminKey: options.adminKey,
    maxUploadBytes: whole('maxUploadBytes', options.maxUploadBytes, 2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    description: description(options.description),
    clockOffsetMs: whole('clock offset', options.clockOffsetSeconds, 0, -TEN_YEARS_S, TEN_YEARS_S) * 1000,
  };
}
