// Vitest global setup: spawned tests and the mock run bin/appraisal.js -> dist/, so dist/ must not
// be older than the sources. Builds when it is (scripts/build.mjs --if-stale: a no-op when fresh),
// or stops the run with one clear line instead of testing an old build.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './helpers/env.js';

export default function buildIfStale(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status === 0) return;
  const lines = `${build.stderr ?? ''}\n${build.error?.message ?? ''}`.split('\n').filter((line) => line.trim() !== '');
  const reason = lines.find((line) => /: ERROR: /.test(line)) ?? lines.find((line) => /^\w*Error\b/.test(line)) ?? `exit ${build.status}`;
  process.stderr.write(`error: dist/ is older than src/ and rebuilding it failed: ${reason.trim()} (no test ran against the old build)\n`);
  process.exit(1);
}
