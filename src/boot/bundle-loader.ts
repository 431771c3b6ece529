// Loads the command bundle (dist/main-HASH.cjs, one CommonJS file) with the V8 code cache written
// beside it at build time (scripts/build.mjs), so a run deserializes compiled code instead of
// parsing ~2 MB of JavaScript: `props get` measured ~200 → ~160 ms, ~50 ms less CPU (bench/,
// CHANGELOG). Node 20 has no module compile cache for ES modules (module.enableCompileCache is
// Node >= 22.1), hence CommonJS through vm.Script, which takes `cachedData`.
//
// Robust by construction: the bundle's name carries a hash of its content, so a cache never meets
// another source; the cache file starts with the SHA-256 of the rest, because V8 checks only a code
// cache's length and versions, not its bytes (a flipped byte was accepted); a missing, unreadable,
// damaged or rejected cache (another Node version, other V8 flags) only means V8 compiles the source
// as it would without one. Checking the digest costs ~1 ms of CPU (node:crypto loads anyway).
//
// The vendor bundles the command bundle requires (dist/vendor/GROUP.cjs, scripts/vendor-bundles.mjs)
// are loaded the same way, each once, with the code cache the build wrote for some of them
// (DuckDB's JavaScript: ~45 → ~20 ms to load; ajv's).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { deferringRequire } from './deferred-builtins.js';
import { setBundleFlags } from './v8-flags.js';

const DIGEST_BYTES = 32;

/**
 * The cache file's content for V8's `cachedData`: its SHA-256, then the data. A vendor bundle's
 * digest also covers the source the cache was made from (`source`): its file name carries no hash
 * of its content, and V8 would take a cache made for another source of the same length.
 */
export function sealCache(data: Buffer, source?: string): Buffer {
  return Buffer.concat([digest(data, source), data]);
}

/** V8's data from a cache file's content, or undefined when it is not what sealCache wrote (for `source`). */
export function openCache(file: Buffer, source?: string): Buffer | undefined {
  if (file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return digest(data, source).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function digest(data: Buffer, source: string | undefined): Buffer {
  const hash = createHash('sha256').update(data);
  if (source !== undefined) hash.update(source, 'latin1');
  return hash.digest();
}

export interface LoadedBundle {
  exports: unknown;
  /** The compiled script, for the build to call createCachedData() on after exercising it. */
  script: Script;
  cacheRejected: boolean | undefined;
}

/** `vendor`: a vendor bundle, whose cache is bound to its source (sealCache). */
export function loadBundle(url: URL, { useCache = true, vendor = false }: { useCache?: boolean; vendor?: boolean } = {}): LoadedBundle {
  const file = fileURLToPath(url);
  // The bundle is ASCII (scripts/build.mjs: charset ascii), so latin1 reads it exactly, without the
  // UTF-8 decoding that took ~6 ms of CPU for 2 MB.
  const source = readFileSync(file, 'latin1');
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      cachedData = openCache(readFileSync(`${file}.cache`), vendor ? source : undefined);
    } catch {
      // No cache (or not readable): compile from the source.
    }
  }
  return runBundle({ source, cachedData, file, require: vendorRequire(file, deferringRequire(createRequire(file))) });
}

/** `require` with `./vendor/GROUP.cjs` loaded by loadBundle (with its code cache when it has one), once each. */
function vendorRequire(file: string, require: NodeJS.Require): NodeJS.Require {
  const vendors = new Map<string, unknown>();
  const requiring = ((id: string) => {
    if (!id.startsWith('./vendor/')) return require(id);
    if (!vendors.has(id)) vendors.set(id, loadBundle(pathToFileURL(join(dirname(file), id)), { vendor: true }).exports);
    return vendors.get(id);
  }) as NodeJS.Require;
  return Object.assign(requiring, { resolve: require.resolve, cache: require.cache, main: require.main, extensions: require.extensions });
}

/**
 * Compile and run a bundle's source as a CommonJS module: for dist/ (loadBundle) and for the single
 * executable, whose bundle and cache come from its assets (src/boot/sea-files.ts).
 */
export function runBundle({
  source,
  cachedData,
  file,
  require,
}: {
  source: string;
  cachedData: Buffer | undefined;
  file: string;
  require: NodeJS.Require;
}): LoadedBundle {
  // Before compiling: the code cache was made under the same flags (v8-flags.ts says why each).
  setBundleFlags();
  // The CommonJS wrapper, as node:module's own (Module.wrap) writes it.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, { filename: file, cachedData });
  const wrapper = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: object,
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} as object };
  wrapper.call(module.exports, module.exports, require, module, file, dirname(file));
  return { exports: module.exports, script, cacheRejected: cachedData === undefined ? undefined : script.cachedDataRejected };
}
