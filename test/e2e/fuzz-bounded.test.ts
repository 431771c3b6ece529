// The property-based tests of test/fuzz that run whole commands (random command lines, random
// service answers), with a bounded number of cases so `npm test` runs them on every change; here in
// process (main() per case), spawned under `npm run fuzz`. A failure prints fast-check's seed;
// FUZZ_SEED=<seed> npm run fuzz replays it with more cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliArgsProperty, startCliFuzzFixture, type CliFuzzFixture } from '../fuzz/properties/cli-args.js';
import { responsesProperty, startResponseFuzzFixture, type ResponseFuzzFixture } from '../fuzz/properties/responses.js';
import type { CommandRunner } from '../fuzz/properties/runner.js';
import { fuzzParameters } from '../fuzz/properties/runs.js';
import { run } from '../helpers/run.js';

/** One case in process; one that never ends is interrupted (exit 130, a failure) after a minute. */
const inProcess: CommandRunner = (argv, options) => run(argv, { ...options, signal: AbortSignal.timeout(60_000) });

// In process a case costs milliseconds: more cases than the 30 a process each allowed, and shrinking.
const RUNS = 100;

describe('property-based tests (bounded): commands under random input', () => {
  let cli: CliFuzzFixture;
  let responses: ResponseFuzzFixture;
  beforeAll(async () => {
    [cli, responses] = await Promise.all([startCliFuzzFixture(inProcess), startResponseFuzzFixture(inProcess)]);
  });
  afterAll(async () => {
    await Promise.all([cli?.stop(), responses?.stop()]);
  });

  it(`random command lines (${RUNS} cases)`, { timeout: 300_000 }, async () => {
    await fc.assert(cliArgsProperty(cli), fuzzParameters(RUNS, 'in-process'));
  });

  it(`random service answers (${RUNS} cases)`, { timeout: 300_000 }, async () => {
    await fc.assert(responsesProperty(responses), fuzzParameters(RUNS, 'in-process'));
  });
});
