// What the tests of answers too large or lying share (hostile-limits.test.ts in process,
// hostile-process.test.ts as a process): their server, the key they give the CLI, the checks they make.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems, type Outcome } from '../helpers/exit-shape.js';
import { startHostile, type HostileServer } from './server.js';

export const LIMITS_KEY = 'apk_Limits01_LimitsS3cretLimitsS3cretLimit42';

/** Requests for the collection (the CLI may also fetch the service description first). */
export function collectionRequests(server: HostileServer): string[] {
  return server.requests.map((request) => request.path).filter((target) => target.startsWith('/api/properties'));
}

/** The documented exit code, one `error:` line, and no trace of the key. */
export function expectCleanFailure(result: Outcome, code: number): void {
  expect(result.code, result.stderr).toBe(code);
  expect(exitProblems(result)).toEqual([]);
  expect(result.stdout + result.stderr).not.toContain(LIMITS_KEY.slice(13));
}

/** One hostile server for the file, its request log cleared after each test; env() points the CLI at it. */
export function useLimitsServer() {
  const held = {
    server: undefined as unknown as HostileServer,
    env: (extra: Record<string, string | undefined> = {}): Record<string, string | undefined> =>
      isolatedEnv({ APPRAISAL_BASE_URL: held.server.url, APPRAISAL_API_KEY: LIMITS_KEY, ...extra }),
  };
  beforeAll(async () => {
    held.server = await startHostile();
  });
  afterEach(() => {
    held.server.requests.length = 0;
  });
  afterAll(async () => {
    await held.server?.close();
  });
  return held;
}
