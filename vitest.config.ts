import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/fuzz/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: e2e files spawn a mock and CLI processes each; keep parallelism modest.
    maxWorkers: 2,
  },
});
