// What every command receives. Commands never touch process.* or undici: they get IO, the parsed
// global options, and lazy accessors for config, session and API client, so tests can hand in fakes
// and start-up loads only what a command uses.
import type { ApiClient } from './api-client.js';
import type { IO } from './io.js';
import type { ConfigStore, Environment } from './config.js';
import type { Env } from './env.js';
import type { Session } from './session-types.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv'];

export interface GlobalOptions {
  profile: string | undefined;
  baseUrl: string | undefined;
  /** Resolved: an explicit -o, else table on a terminal, json otherwise. */
  output: OutputFormat;
  /** True when -o was given explicitly (some commands change their default, e.g. keys create). */
  outputExplicit: boolean;
  fields: string[] | undefined;
  page: number | undefined;
  pageSize: number | undefined;
  maxItems: number | undefined;
  concurrency: number;
  out: string | undefined;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  retries: number;
  /** The most one JSON answer may hold (--max-response-size / APPRAISAL_MAX_RESPONSE_SIZE); unset, the client's default. */
  maxResponseBytes?: number | undefined;
  caFile: string | undefined;
  apiKeyFile: string | undefined;
  allowPartial: boolean;
  verbose: boolean;
  quiet: boolean;
  color: boolean;
  yes: boolean;
  noInput: boolean;
  /**
   * What a run without a stored profile targets (APPRAISAL_ENVIRONMENT, or a command's
   * --environment); unset, such a run counts as production (local for loopback hosts).
   */
  environment: Environment | undefined;
  /** `--spec URL|PATH`: the service description for this run (else the profile's, the service's own, or the bundled one). */
  spec?: string | undefined;
}

export interface Context {
  readonly io: IO;
  readonly env: Env;
  readonly globals: GlobalOptions;
  /** Aborted on Ctrl-C: long operations stop, clean up, and throw InterruptedError. */
  readonly signal: AbortSignal;
  readonly version: string;
  /** Working directory for resolving relative paths given on the command line. */
  readonly cwd: string;
  now(): Date;
  /** Profiles and settings (config.json), loaded on first use. */
  config(): Promise<ConfigStore>;
  /** The active profile, effective base URL and credential, with the origin guards applied. */
  session(): Promise<Session>;
  /** An API client for the session, created on first use and reused. */
  api(): Promise<ApiClient>;
  /** For commands that run until Ctrl-C (the mock): an interrupt is their normal end, exit 0. */
  runUntilInterrupted(): void;
}
