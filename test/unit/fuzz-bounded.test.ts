// The in-process property-based tests of test/fuzz, with a bounded number of cases so `npm test` runs
// them on every change (test/fuzz itself runs only under `npm run fuzz`, with FUZZ_RUNS cases). The
// properties that need the built binary are in test/e2e/fuzz-bounded.test.ts.
// A failure prints fast-check's seed; FUZZ_SEED=<seed> npm run fuzz replays it with more cases.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { IN_PROCESS_PROPERTIES } from '../fuzz/properties/in-process.js';
import { fuzzParameters } from '../fuzz/properties/runs.js';

const IN_PROCESS_RUNS = 60;

describe('property-based tests (bounded)', () => {
  for (const { name, property } of IN_PROCESS_PROPERTIES) {
    it(`${name} (${IN_PROCESS_RUNS} cases)`, async () => {
      await fc.assert(property(), fuzzParameters(IN_PROCESS_RUNS, 'in-process'));
    });
  }
});
