// Shared by the keys and rotate e2e tests: short names for the mock's admin client, and the secret canary.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { CliResult } from '../helpers/spawn.js';
import { adminOf, type FaultRule, type RequestLogEntry } from '../helpers/mock-admin.js';
import type { MockServer } from '../helpers/mock.js';
import { filesUnder } from './credentials-support.js';

// The mock's admin routes go through the one admin client (test/helpers/mock-admin.ts); these keep
// the keys and rotate tests' short names for it.
export type { FaultRule, KeyRow, RequestLogEntry } from '../helpers/mock-admin.js';

export const call = (mock: MockServer, method: string, path: string, options: { key?: string; body?: unknown } = {}) =>
  adminOf(mock).call(method, path, options.body, options.key);
export const statusWith = (mock: MockServer, key: string) => adminOf(mock).statusWith(key);
export const queueFault = (mock: MockServer, rule: FaultRule) => adminOf(mock).queueFault(rule);
export const clearFaults = (mock: MockServer) => adminOf(mock).clearFaults();
export const releaseHeld = (mock: MockServer) => adminOf(mock).release();
export const requestLog = (mock: MockServer) => adminOf(mock).apiRequests();
export const clearRequestLog = (mock: MockServer) => adminOf(mock).clearRequests();
export const waitForRequest = (mock: MockServer, match: (entry: RequestLogEntry) => boolean, timeoutMs?: number) =>
  adminOf(mock).waitForRequest(match, timeoutMs);
export const allKeys = (mock: MockServer) => adminOf(mock).keys();
export const keyByPrefix = (mock: MockServer, prefix: string) => adminOf(mock).keyByPrefix(prefix);

/** The secret canary: none of `secrets` in any output or in any file under `dirs` (except `allowed` files). */
export function expectNoSecrets(
  secrets: readonly string[],
  results: readonly CliResult[],
  dirs: readonly string[],
  allowed: readonly string[] = [],
): void {
  const files = dirs.flatMap((dir) => filesUnder(dir)).filter((file) => !allowed.includes(file));
  for (const secret of secrets) {
    for (const [i, result] of results.entries()) {
      expect(result.stdout, `stdout of run ${i}`).not.toContain(secret);
      expect(result.stderr, `stderr of run ${i}`).not.toContain(secret);
    }
    const leaking = files.filter((file) => readFileSync(file).includes(secret));
    expect(leaking, 'files holding a secret').toEqual([]);
  }
}

/** The prefixes named in a message, in order. */
export function prefixesIn(text: string): string[] {
  return [...text.matchAll(/\bapk_[A-Za-z0-9]{8}\b/g)].map((match) => match[0]);
}
