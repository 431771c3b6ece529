// `npm run fuzz`: the property-based tests under test/fuzz (excluded from `npm test`, which runs a
// bounded number of the same properties from test/unit/ and test/e2e/fuzz-bounded.test.ts), with FUZZ_RUNS cases.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    // Builds dist/ when a source is newer, or fails with one line (test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    // Removes every directory made with test/helpers/temp.ts once a test file ends.
    setupFiles: ['test/helpers/setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
  },
});
