// Which test files need dist/ (the build): exactly those that import test/helpers/spawn.ts, the one
// way a test starts bin/appraisal.js, directly or through a helper of the test tree they import
// (type-only imports aside: they are erased). Everything else runs from the TypeScript sources.
// test/global-setup.ts builds dist/ only when a file of the run needs it; test/unit/needs-dist.test.ts
// keeps the rule true (no file outside it names the build) and the count the one docs/ARCHITECTURE.md states.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const SPAWN_HELPER = 'test/helpers/spawn.ts';

/** The files of the test tree a file imports for their values (relative specifiers, .js written for .ts). */
export function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^;'"]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)].map((m) => m[1]!),
  ];
  return specifiers.map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))).filter((path) => existsSync(path));
}

/** Whether `file` (absolute) reaches the spawn helper through its imports. */
export function needsDist(root: string, file: string, seen = new Set<string>()): boolean {
  const target = join(root, SPAWN_HELPER);
  if (file === target) return true;
  if (seen.has(file) || !file.startsWith(join(root, 'test'))) return false;
  seen.add(file);
  return localImports(file).some((imported) => needsDist(root, imported, seen));
}
