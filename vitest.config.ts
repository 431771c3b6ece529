import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.js';

// Files that point the keychain's native addon at a D-Bus session of their own (DBUS_SESSION_BUS_ADDRESS):
// the addon, loaded once per worker, may keep the first session it met, so these get a fresh process.
// The PostgreSQL TLS file checks that no library warning is emitted, which pg-connection-string does
// once per process.
const OWN_PROCESS = ['test/e2e/keychain.test.ts', 'test/e2e/rotate.test.ts', 'test/e2e/sync-postgres-tls.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Builds dist/ when a source is newer (spawned tests and the mock run it), or fails with one line.
    globalSetup: ['test/global-setup.ts'],
    // Removes every directory made with test/helpers/temp.ts once a test file ends.
    setupFiles: ['test/helpers/setup.ts'],
    pool: 'forks',
    // Two cores, three files at a time: many e2e files wait (timeouts, rate windows, a held request)
    // while their spawned processes sleep, and a third file uses that idle core. The suite is CPU-bound
    // on two cores (about 1.95 busy): with per-file isolation, measured warm, 234 s with 3 workers and
    // 239 s with 2; without it (below), a fresh clone's run took 202 s with 3.
    maxWorkers: 3,
    // Longest files first, also on a fresh clone without vitest's results cache (test/longest-first.ts):
    // with vitest's own order (largest files first) the same clone took 244 s with 3 workers.
    sequence: { sequencer: LongestFirst },
    // Test files share their workers' module cache (no per-file isolation): each file would otherwise
    // load vitest, the sources and their dependencies again in a fresh process, which cost more than
    // many tests themselves — test/unit measured 101 s CPU isolated, 39 s shared; the whole suite
    // 433 s CPU with e2e isolated, 374 s shared (2 cores, the same tests passing). None of them mocks
    // a module (no vi.mock); each restores what it changes (process.env, timers), and the CLI keeps no
    // run state at module level (test/unit/architecture.test.ts). Files that run the CLI as a process
    // are unaffected either way; the two in OWN_PROCESS keep a process of their own.
    // One project for every shared file, unit and e2e alike: vitest keeps a shared worker for the next
    // file only when that file is of the same project, so two projects interleaved by the longest-first
    // order stopped a worker and started a fresh one (vitest, the sources, their dependencies loaded
    // again) at each of ~60 switches — 151 small files: 45 s and 84 s CPU as two projects, 23 s and
    // 42 s as one. The OWN_PROCESS files start first (test/longest-first.ts): a shared worker is also
    // stopped when the next file in the queue is one of them.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ['test/fuzz/**', 'node_modules/**', ...OWN_PROCESS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS } },
    ],
  },
});
