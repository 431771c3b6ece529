// What a bug report needs to say about this copy of the CLI (`appraisal version`, `--version
// --verbose`, doctor): the version, the commit and date it was built from, the Node it runs on, the
// platform, and how it was installed. The build writes the first three into the bundle
// (scripts/build.mjs: __APPRAISAL_BUILD__); the rest is read here, from this process. Nothing here
// asks the network (no update check).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __APPRAISAL_BUILD__: { version: string; commit: string; date: string } | undefined;

/** How this copy was installed: a git clone, the npm package, or the single executable. */
export type InstallKind = 'clone' | 'npm package' | 'executable' | 'sources';

export interface BuildInfo {
  version: string;
  /** The git commit built from (`unknown` when the build was not run in a git checkout). */
  commit: string;
  /** When the bundle was built (ISO 8601, UTC; SOURCE_DATE_EPOCH when set). */
  buildDate: string;
  node: string;
  platform: string;
  arch: string;
  install: InstallKind;
}

/** True in the single executable (npm run package). */
export function isSingleExecutable(): boolean {
  try {
    // node:sea exists from Node 20.12 (engines says >= 20.18); asked through require so that a
    // run from the sources (vitest) needs nothing special.
    const sea = createRequire(import.meta.url)('node:sea') as { isSea(): boolean };
    return sea.isSea();
  } catch {
    return false;
  }
}

/** The install kind of the code at `moduleUrl` (this bundle's file, or a source file in tests). */
export function installKind(moduleUrl: string, singleExecutable = isSingleExecutable()): InstallKind {
  if (singleExecutable) return 'executable';
  const file = fileURLToPath(moduleUrl);
  // An npm install puts the package under some node_modules folder (global or local).
  if (file.includes(`${sep}node_modules${sep}`)) return 'npm package';
  // dist/main-HASH.cjs → the checkout's root; src/core/build-info.ts → two folders higher.
  const built = dirname(file).endsWith(`${sep}dist`);
  const root = built ? dirname(dirname(file)) : join(dirname(file), '..', '..');
  if (existsSync(join(root, '.git'))) return built ? 'clone' : 'sources';
  return built ? 'npm package' : 'sources';
}

export function buildInfo(version: string): BuildInfo {
  const built = typeof __APPRAISAL_BUILD__ === 'object' ? __APPRAISAL_BUILD__ : undefined;
  return {
    version,
    commit: built?.commit ?? 'unknown (not built)',
    buildDate: built?.date ?? 'unknown (not built)',
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    install: installKind(import.meta.url),
  };
}
