// What one smoke check is, what the checks share while they run, and what each one ends as.
import type { ApiClient } from '../../../core/api-client.js';
import type { Context } from '../../../core/context.js';
import type { Session } from '../../../core/session.js';
import type { Binding, BoundOperation } from '../../../core/description/operation-binding.js';
import type { LoadedDescription } from '../../../core/description/load.js';
import type { Operation } from '../../../core/description/operations.js';
import type { Validator } from '../../../core/description/validate.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** Wall time in milliseconds (0 for skips). */
  ms: number;
  /** What was found, why it failed, or why it was skipped. */
  detail: string;
  /** For failures: what went wrong, which also picks the exit code. */
  error?: unknown;
  /** For failures: what to reproduce it with (request, answer, a ready-to-run curl). */
  failure?: FailureDetails;
  /** The latency budget the check ran under, in milliseconds. */
  budgetMs?: number;
}

/** The request a check makes, for failure details and the curl that reproduces it. */
export interface CheckRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  body?: unknown;
  /** Whether the request carries the key (the reachability probe does not). */
  auth?: boolean;
}

export interface FailureDetails {
  method?: string;
  path?: string;
  status?: number;
  requestId?: string;
  /** The service's own message, when it gave one. */
  serviceMessage?: string;
  /** A ready-to-run command, the key replaced by $APPRAISAL_API_KEY. */
  curl?: string;
}

/** The service's published description, as the contract checks use it. */
export interface ContractState {
  validator: Validator;
}

export interface SmokeDescription {
  loaded: LoadedDescription;
  /** The modelled operations the service publishes, and where. */
  bound: BoundOperation[];
  /** The modelled operations it does not publish (with their modelled operationId). */
  missing: Array<{ declared: Operation; operationId: string | undefined }>;
}

/** What the checks learn as they go, for the checks after them. */
export interface SmokeState {
  readonly ctx: Context;
  readonly session: Session;
  /**
   * The API client, built on first use (the environment check makes no request); once smoke has bound
   * its operations to the description, requests go where the service publishes them.
   */
  client(): Promise<ApiClient>;
  /** The description every command binds to, read once (a rejected promise when it could not be). */
  describe(): Promise<SmokeDescription>;
  /** The reachable check passed. */
  reached?: boolean;
  /** The description, once read; and smoke's operations (with the checks file's) bound to it. */
  description?: SmokeDescription;
  binding?: Binding;
  /** The calling key's record and scopes, once the credential check passed. */
  key?: Record<string, unknown>;
  scopes?: string[];
  /** From `get enums`, for the throwaway property of --write. */
  propertyTypes: string[];
  /** The description's validator, once the spec check read it (not with --no-contract). */
  contract?: ContractState;
  /** The throwaway property of --write, once created. */
  created?: { id: string; name: string; path: string };
}

export interface SmokeCheck {
  name: string;
  /** Listed only with --write. */
  write?: boolean;
  /** Why this check does not run (an earlier check failed, the key's scopes); undefined runs it. */
  skip?(state: SmokeState): string | undefined;
  /** Runs the check: returns what it found, throws what went wrong. */
  run(state: SmokeState): Promise<string>;
  /** Facts known before any request: reported without a time (and never over a budget). */
  untimed?: boolean;
  /** Reads or writes the service's data: a run where every such check was skipped proved nothing. */
  probe?: boolean;
  /** The request it makes (its last, when several), for failure details. */
  request?(state: SmokeState): CheckRequest | undefined;
  /** Its own latency budget in milliseconds (a checks file's maxLatency), over --max-latency. */
  maxLatencyMs?: number;
  /** Waits by design (--wait-ready): no latency budget applies. */
  noBudget?: boolean;
  /** When it fails, every later check is skipped with this reason. */
  gate?: string;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The skip reason of every check that needs the credential's scopes. */
export function withoutCredential(state: SmokeState): string | undefined {
  return state.scopes ? undefined : 'the credential check failed';
}
