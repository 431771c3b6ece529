// The single executable loads the command bundle, its code cache and the vendor bundles from its
// assets (scripts/package-sea.mjs puts them there, named as in dist/). The bundle gets a require that
// serves `./vendor/*.cjs` from the assets and the keychain's native addon from a verified copy
// (sea-native.ts); Node built-ins are deferred as in a normal run (deferred-builtins.ts). Nothing else
// is loaded from disk: a require resolved beside the executable would walk up its directories'
// node_modules (/tmp/node_modules for an executable under /tmp), code anyone may have planted there.
// A module the executable lacks (DuckDB's addon, pg's optional native driver) is simply not found.
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { getAsset } from 'node:sea';
import { compileFunction } from 'node:vm';
import { openCache, runBundle, type LoadedBundle } from './bundle-loader.js';
import { deferringRequire } from './deferred-builtins.js';
import { loadKeyringAddon } from './sea-native.js';

function asset(name: string): Buffer {
  return Buffer.from(getAsset(name));
}

/** A bundle's file name for stack traces: as if it lay beside the executable. */
const besideExecutable = (name: string): string => join(dirname(process.execPath), name);

const vendorModules = new Map<string, unknown>();

/** A require of Node's built-in modules only: any other id is not found, never looked for on disk. */
function builtinsOnly(require: NodeJS.Require): NodeJS.Require {
  return ((id: string) => {
    if (isBuiltin(id)) return require(id);
    throw Object.assign(new Error(`Cannot find module '${id}': the single executable holds no such module and loads none from disk`), {
      code: 'MODULE_NOT_FOUND',
    });
  }) as NodeJS.Require;
}

/** `./vendor/GROUP.cjs`, compiled from its asset once (the vendor bundles require only built-ins). */
function requireVendor(id: string, builtins: NodeJS.Require): unknown {
  const name = id.slice('./'.length);
  if (!vendorModules.has(name)) {
    const filename = besideExecutable(name);
    const wrapper = compileFunction(asset(name).toString('utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], {
      filename,
    });
    const module = { exports: {} as unknown };
    wrapper.call(module.exports, module.exports, builtins, module, filename, dirname(filename));
    vendorModules.set(name, module.exports);
  }
  return vendorModules.get(name);
}

export function loadCommandBundle(name: string): LoadedBundle {
  const file = besideExecutable(name);
  const builtins = builtinsOnly(deferringRequire(createRequire(file)));
  const require = ((id: string) => {
    if (id.startsWith('./vendor/')) return requireVendor(id, builtins);
    if (id === '@napi-rs/keyring') return loadKeyringAddon();
    return builtins(id);
  }) as NodeJS.Require;
  let cachedData: Buffer | undefined;
  try {
    cachedData = openCache(asset(`${name}.cache`));
  } catch {
    // Packaged without a cache: compile from the source.
  }
  // ASCII (scripts/build.mjs), so latin1 decodes it exactly and fast.
  return runBundle({ source: asset(name).toString('latin1'), cachedData, file, require });
}
