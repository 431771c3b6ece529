// What every command receives. Commands never touch process.* or undici: they get IO, the parsed
// global options, and lazy accessors for config, session and API client, so tests can hand in fakes
// and start-up loads only what a command uses.
import type { Writable } from 'node:stream';
import type { ApiClient, ClientTarget } from './api-client.js';
import type { IO } from './io.js';
import type { OutboundClient, OutboundSettings } from './http/outbound.js';
import type { ConfigStore } from './config.js';
import type { Env } from './env.js';
import type { GlobalOptions } from './global-options.js';
import type { OutputPlan } from './output-plan.js';
import type { ServiceClock } from './service-clock.js';
import type { SecretStore } from './credentials/keychain.js';
import type { Session } from './session.js';

export interface Context {
  readonly io: IO;
  readonly env: Env;
  readonly globals: GlobalOptions;
  /** How this run writes its output (format, fields, destination, colour, width), resolved once (output-plan.ts). */
  readonly output: OutputPlan;
  /** Aborted on Ctrl-C: long operations stop, clean up, and throw InterruptedError. */
  readonly signal: AbortSignal;
  readonly version: string;
  /** Working directory for resolving relative paths given on the command line. */
  readonly cwd: string;
  now(): Date;
  /** The service's clock, from the Date header of the API client's answers: times compared with its timestamps come from it. */
  readonly serviceClock: ServiceClock;
  /** Profiles and settings (config.json), loaded on first use. */
  config(): Promise<ConfigStore>;
  /** The active profile, effective base URL and credential, with the origin guards applied. */
  session(): Promise<Session>;
  /** An API client for the session, created on first use and reused. */
  api(): Promise<ApiClient>;
  /**
   * An API client of its own for another key, signal or bound (login's candidate key, a rotation's or
   * a lease's client that outlives Ctrl-C, doctor's quick checks), with this run's settings otherwise.
   * The caller closes it.
   */
  clientFor(target: ClientTarget): Promise<ApiClient>;
  /**
   * A client for a URL outside the service (a webhook receiver): no API key, no redirects followed,
   * its own CA and timeout, the run's proxy settings. The caller closes it.
   */
  outbound(settings: OutboundSettings): Promise<OutboundClient>;
  /** The OS keychain (login, logout, the session's stored key, keys create/rotate, profiles remove, doctor), opened on first use. */
  keychain(): SecretStore;
  /**
   * Ask V8 to favour a small heap over speed, once a run is known to be long (paging asks before a
   * read of 50,000 records, import for a file of 3 MiB or more, else at its 50,000th row): the process entry decides what that means;
   * nothing happens where it gave nothing (main() run by a test).
   */
  favourSmallHeap(): void;
  /** For commands that run until Ctrl-C (the mock): an interrupt is their normal end, exit 0. */
  runUntilInterrupted(): void;
  /**
   * Run another command of this CLI in this process with streams of its own, as if typed: the MCP
   * server's tool calls go through every flag check, guard and printer a typed command does.
   * Resolves to its exit code.
   */
  runCommand(argv: readonly string[], streams: NestedStreams): Promise<number>;
  /**
   * Every noun of this CLI with its declarations loaded, in registry order: for the commands that read
   * them all (`spec check`, completion, the MCP tools, lease scopes). The registry imports every
   * command, so no command imports it: main.ts hands its loader to the context. Read it typed through
   * `declaredNouns(ctx)` / `declaredVerbs(ctx)` (core/verb.ts): the declarations name Context, so
   * this file cannot name them back without an import cycle.
   */
  declarations(): Promise<readonly unknown[]>;
  /** What this run learnt about the service description it is bound to (description/load.ts, announced.ts). */
  readonly description: DescriptionUse;
}

/** The description a run uses, kept on its context: an answer's service-desc Link is compared with it. */
export interface DescriptionUse {
  /** The discovered (or bundled) description this run uses; unset when the user named one (--spec, --spec-url) or none was loaded. */
  inUse?: { baseUrl: string; url: string | undefined };
  /** service-desc Links already handled: a paged export sees the same header on every page. */
  readonly announced: Set<string>;
}

/** Where a nested command writes, what it may read, and what ends it early. */
export interface NestedStreams {
  stdout: Writable;
  stderr: Writable;
  signal: AbortSignal;
  /** Its environment (default: this run's). */
  env?: Env;
}
