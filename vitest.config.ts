import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/fuzz/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Builds dist/ when a source is newer (spawned tests and the mock run it), or fails with one line.
    globalSetup: ['test/global-setup.ts'],
    // Removes every directory made with test/helpers/temp.ts once a test file ends.
    setupFiles: ['test/helpers/setup.ts'],
    pool: 'forks',
    // Two cores, three files at a time: many e2e files wait (timeouts, rate windows, a held request)
    // while their spawned processes sleep, and a third file uses that idle core. Measured on 2 cores,
    // a fresh clone (`.ci/run`), longest files first: 212 s with 2 workers, 196 s with 3; in a warm
    // checkout 192 s, 179 s, and 179 s with 4 (more only adds load).
    maxWorkers: 3,
    // Longest files first, also on a fresh clone without vitest's results cache (test/longest-first.ts):
    // with vitest's own order (largest files first) the same clone took 244 s with 3 workers.
    sequence: { sequencer: LongestFirst },
  },
});
