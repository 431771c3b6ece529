// Issue 25 §5: a failed smoke check's service message is said once — in its row of the table — not
// again as "service said:" under it and in full on the last line, which names the check instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ records: 5, seed: 9 });
});
afterAll(async () => {
  await mock?.stop();
});

it('a 422 of a checks file check: its message once, the last line names the check', async () => {
  const checks = join(tempDir('smoke-422-'), 'checks.json');
  writeFileSync(
    checks,
    JSON.stringify({ checks: [{ name: 'office list', operation: 'listProperties', params: { propertyType: 'Office' } }] }),
  );
  const result = await run(['smoke', '--checks', checks, '-o', 'json'], {
    env: isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'staging' }),
  });
  expect(exitProblems(result), result.stderr).toEqual([]);
  expect(result.code, result.stderr).toBe(7);
  expect(result.stderr.match(/must be one of/g), result.stderr).toHaveLength(1);
  expect(result.stderr).toMatch(/^office list\s+FAIL\s+.*422 Unprocessable Entity — query parameter propertyType: must be one of/m);
  expect(result.stderr).toMatch(
    /^error: smoke: check "office list" failed: GET \/api\/properties\?propertyType=Office: 422 Unprocessable Entity$/m,
  );
});
