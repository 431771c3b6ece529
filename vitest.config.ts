import { defineConfig } from 'vitest/config';

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
    // Two cores: e2e files spawn a mock and CLI processes each; keep parallelism modest.
    maxWorkers: 2,
  },
});
