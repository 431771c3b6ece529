// Output that cannot be written (found by issue 8's fault hunt): stdout on a full device used to
// crash with a stack trace (exit 1), and a full stderr turned any exit into 1. Now: exit 2 with one
// `error:` line when stdout fails, the command's own exit code when stderr fails, and `| head`
// still ends quietly.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliResult } from '../helpers/spawn.js';
import { isolatedEnv } from '../helpers/env.js';
import { exitProblems } from '../helpers/exit-shape.js';
import { startMock, type MockServer } from '../helpers/mock.js';

const FULL = '/dev/full';
let mock: MockServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  mock = await startMock({ records: 5 });
  env = isolatedEnv(mock.env);
});

afterAll(async () => {
  await mock?.stop();
});

/** Run with stdout (or stderr) on /dev/full, where every write fails with ENOSPC. */
function runWithFull(args: string[], which: 'stdout' | 'stderr'): Promise<CliResult> {
  return startCli(args, { env, ...(which === 'stdout' ? { stdoutFile: FULL } : { stderrFile: FULL }) }).result;
}

describe.runIf(existsSync(FULL))(`writing to a full device${existsSync(FULL) ? '' : ` [skipped: no ${FULL} here]`}`, () => {
  it.each([
    [['--version']],
    [['--help']],
    [['completion', 'bash']],
    [['help', 'exit-codes']],
    [['props', 'list']],
    [['props', 'list', '-o', 'table']],
    [['ref', 'enums']],
  ])('stdout full: appraisal %j exits 2 with one error line, no stack trace', async (args) => {
    const result = await runWithFull(args, 'stdout');
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: could not write (to stdout|the output): no space left on device$/m);
  });

  it('stdout full: files download exits 2 (our side failed), not 3 (the connection)', async () => {
    const listed = await runCli(['files', 'list', '--max-items', '1', '-o', 'json'], { env });
    const id = (JSON.parse(listed.stdout) as Array<{ id: string }>)[0]!.id;
    const result = await runWithFull(['files', 'download', id], 'stdout');
    expect(exitProblems(result), result.stderr).toEqual([]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^error: could not write file .*: no space left on device$/m);
  });

  it("stderr full: the exit code is still the command's own (0 on success, 2 for a usage error)", async () => {
    expect((await runWithFull(['props', 'list', '--verbose'], 'stderr')).code).toBe(0);
    expect((await runWithFull(['props', 'get', 'not-a-uuid'], 'stderr')).code).toBe(2);
  });
});

describe('--out naming the standard output', () => {
  it('--out /dev/stdout on a pipe is refused as what it is, not as a dangling link (exit 2, nothing written)', async () => {
    for (const args of [
      ['props', 'list', '-o', 'parquet', '--out', '/dev/stdout'],
      ['props', 'list', '-o', 'json', '--out', '/dev/stdout'],
    ]) {
      const result = await runCli(args, { env });
      expect(exitProblems(result), result.stderr).toEqual([]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^error: --out \/dev\/stdout is not a file but a (pipe|socket); --out writes a file/m);
      expect(result.stderr).toMatch(/^hint: to write to standard output, leave --out out$/m);
      expect(result.stdout).toBe('');
    }
  });
});
