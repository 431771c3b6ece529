// `npm run fuzz`: the properties that start the CLI once per case (random command lines against the
// mock; random service answers), with FUZZ_RUNS / 4 cases each (see properties/runs.ts).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliArgsProperty, startCliFuzzFixture, type CliFuzzFixture } from './properties/cli-args.js';
import { responsesProperty, startResponseFuzzFixture, type ResponseFuzzFixture } from './properties/responses.js';
import { fuzzParameters, fuzzRuns } from './properties/runs.js';
import type { CommandRunner } from './properties/runner.js';
import { runCli } from '../helpers/spawn.js';

const runs = fuzzRuns('process-per-case', 100);
const spawned: CommandRunner = (argv, options) => runCli(argv, { ...options, timeoutMs: 60_000 });
let cli: CliFuzzFixture;
let responses: ResponseFuzzFixture;

beforeAll(async () => {
  [cli, responses] = await Promise.all([startCliFuzzFixture(spawned), startResponseFuzzFixture(spawned)]);
});

afterAll(async () => {
  if (process.env.FUZZ_STATS)
    console.log('exit codes: command lines', Object.fromEntries(cli.exitCodes), 'service answers', Object.fromEntries(responses.exitCodes));
  await Promise.all([cli?.stop(), responses?.stop()]);
});

describe('the binary under random input', () => {
  it('random command lines: a documented exit, no stack trace, one error line', { timeout: 3_600_000 }, async () => {
    await fc.assert(cliArgsProperty(cli), fuzzParameters(runs, 'process-per-case'));
  });

  it(
    'random service answers: a documented exit, no stack trace, one error line, nothing left at --out',
    { timeout: 3_600_000 },
    async () => {
      await fc.assert(responsesProperty(responses), fuzzParameters(runs, 'process-per-case'));
    },
  );
});
