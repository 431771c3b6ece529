// The property-based tests of test/fuzz that run the built binary (random command lines, random
// service answers), with a bounded number of cases so `npm test` runs them on every change.
// A failure prints fast-check's seed; FUZZ_SEED=<seed> npm run fuzz replays it with more cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliArgsProperty, startCliFuzzFixture, type CliFuzzFixture } from '../fuzz/properties/cli-args.js';
import { responsesProperty, startResponseFuzzFixture, type ResponseFuzzFixture } from '../fuzz/properties/responses.js';
import { fuzzParameters } from '../fuzz/properties/runs.js';

const PROCESS_RUNS = 30;

describe('property-based tests (bounded): the binary under random input', () => {
  let cli: CliFuzzFixture;
  let responses: ResponseFuzzFixture;
  beforeAll(async () => {
    [cli, responses] = await Promise.all([startCliFuzzFixture(), startResponseFuzzFixture()]);
  });
  afterAll(async () => {
    await Promise.all([cli?.stop(), responses?.stop()]);
  });

  it(`random command lines (${PROCESS_RUNS} cases)`, { timeout: 300_000 }, async () => {
    await fc.assert(cliArgsProperty(cli), fuzzParameters(PROCESS_RUNS, 'process-per-case'));
  });

  it(`random service answers (${PROCESS_RUNS} cases)`, { timeout: 300_000 }, async () => {
    await fc.assert(responsesProperty(responses), fuzzParameters(PROCESS_RUNS, 'process-per-case'));
  });
});
