// `npm run fuzz`: the in-process properties with FUZZ_RUNS cases each (see properties/runs.ts).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { IN_PROCESS_PROPERTIES } from './properties/in-process.js';
import { fuzzParameters, fuzzRuns } from './properties/runs.js';

const runs = fuzzRuns('in-process', 500);

describe('in-process properties', () => {
  for (const { name, property } of IN_PROCESS_PROPERTIES) {
    it(name, { timeout: 900_000 }, async () => {
      await fc.assert(property(), fuzzParameters(runs, 'in-process'));
    });
  }
});
