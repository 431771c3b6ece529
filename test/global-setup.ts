// Vitest global setup: spawned tests run bin/appraisal.js -> dist/, so dist/ must not be older than
// the sources. Only when a test file of this run needs the build (test/helpers/needs-dist.ts: it
// imports test/helpers/spawn.ts) it is built when stale (scripts/build.mjs --if-stale: a no-op when
// fresh), or the run stops with one clear line instead of testing an old build. A run of in-process
// files only builds nothing.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from './helpers/env.js';
import { needsDist } from './helpers/needs-dist.js';

export default function buildIfStale(project: TestProject): void {
  // The files this run tests, known to vitest before the global setup runs (its state API is marked
  // experimental: should it ever come back empty, the build is made as before).
  const files = project.vitest.state.getPaths();
  if (files.length > 0 && !files.some((file) => needsDist(ROOT, file))) return;
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status === 0) return;
  const lines = `${build.stderr ?? ''}\n${build.error?.message ?? ''}`.split('\n').filter((line) => line.trim() !== '');
  const reason = lines.find((line) => /: ERROR: /.test(line)) ?? lines.find((line) => /^\w*Error\b/.test(line)) ?? `exit ${build.status}`;
  process.stderr.write(`error: dist/ is older than src/ and rebuilding it failed: ${reason.trim()} (no test ran against the old build)\n`);
  process.exit(1);
}
