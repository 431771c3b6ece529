// Which test files need the build (test/helpers/needs-dist.ts): the rule the global setup builds by
// holds — no file outside it starts or reads the build — and the count is the one
// docs/ARCHITECTURE.md states (issue 34 §6: at most 20; every other file runs from the sources).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/env.js';
import { localImports, needsDist, SPAWN_HELPER } from '../helpers/needs-dist.js';

/** The files `npm test` runs (vitest.config.ts: test/**\/*.test.ts but test/fuzz). */
function testFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(ROOT, 'test', 'fuzz') ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Code that starts or reads the build: bin/appraisal.js, dist/ under the repository. */
const NAMES_THE_BUILD = /\bBIN\b|'bin', 'appraisal\.js'|bin\/appraisal\.js['`]|\bROOT\b[^;\n]*'dist'|\bDIST\b/;
/** Files that name the build and still need none, with the reason. */
const NAMES_IT_WITHOUT_NEEDING_IT: Record<string, string> = {
  'test/unit/package-manifest.test.ts': 'runs the launcher alone: an old Node is refused before it loads dist/',
  'test/unit/needs-dist.test.ts': 'this file: the pattern itself',
};

const files = testFiles();
const needing = files.filter((file) => needsDist(ROOT, file)).map((file) => relative(ROOT, file));

describe('test files that need dist/', () => {
  it('are the ones that import test/helpers/spawn.ts (type-only imports aside), directly or through a helper', () => {
    const spawnHelper = join(ROOT, SPAWN_HELPER);
    expect(localImports(join(ROOT, 'test', 'e2e', 'signals.test.ts'))).toContain(spawnHelper);
    expect(needing).toContain('test/e2e/signals.test.ts');
    // In process: the mock helper starts src/mock, the runner main().
    expect(needing).not.toContain('test/e2e/props.test.ts');
    expect(needsDist(ROOT, join(ROOT, 'test', 'helpers', 'mock.ts'))).toBe(false);
    expect(needsDist(ROOT, join(ROOT, 'test', 'helpers', 'run.ts'))).toBe(false);
  });

  it('no other file starts or reads the build', () => {
    const naming = files
      .map((file) => relative(ROOT, file))
      .filter((file) => !needing.includes(file) && !(file in NAMES_IT_WITHOUT_NEEDING_IT))
      .filter((file) => NAMES_THE_BUILD.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(naming, 'these name bin/appraisal.js or dist/: import what they need from test/helpers/spawn.ts').toEqual([]);
  });

  it('are as many as docs/ARCHITECTURE.md says', () => {
    const stated = /(\d+) test files need `dist\/`/.exec(readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8'));
    expect(stated, 'docs/ARCHITECTURE.md states how many test files need dist/').not.toBeNull();
    expect(needing.length, needing.join('\n')).toBe(Number(stated![1]));
  });
});
