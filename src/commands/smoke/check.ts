// What one smoke check is, what the checks share while they run, and what each one ends as.
import type { ApiClient } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { Session } from '../../core/session-types.js';

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
}

/** What the checks learn as they go, for the checks after them. */
export interface SmokeState {
  readonly ctx: Context;
  readonly session: Session;
  /** The API client, built on first use (the environment check makes no request). */
  client(): Promise<ApiClient>;
  /** The calling key's record and scopes, once the credential check passed. */
  key?: Record<string, unknown>;
  scopes?: string[];
  /** From `get enums`, for the throwaway property of --write. */
  propertyTypes: string[];
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
  /** Facts known before any request: reported without a time. */
  untimed?: boolean;
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
