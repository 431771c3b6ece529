// How the build writes the V8 code cache of the command bundle (build.mjs step 4): scripts/code-cache.mjs
// in a fresh process, through a loader built here from src/boot/bundle-loader.ts (the same V8 flags a
// run has). The same bytes wherever the build runs (issue 37; test/e2e/reproducible-build.test.ts
// calls this on copies of dist/ elsewhere and compares):
//   - V8 records the bundle's path in the cache: on Linux the producer reaches the directory as
//     /proc/self/cwd, the same path in every build;
//   - V8 derives its string hash seed from --random-seed: fixed here (a run's cache check ignores it);
//   - V8 records the script's id, which counts the scripts compiled before it: always this one loader;
//   - a slow build ran undici's timer tick and a fast one did not: code-cache.mjs makes every build run it.
//   - a slow build pruned DuckDB's prepared statements (a second after the last prune) and a fast one did
//     not: code-cache.mjs makes every build prune them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOADER = 'code-cache-loader.mjs';

/** Write DIR/MAIN.cache for DIR/MAIN (DIR also holds vendor/); the spawn's result. The loader is left in DIR. */
export async function writeCodeCache(dir, mainFile) {
  await build({
    entryPoints: [join(root, 'src', 'boot', 'bundle-loader.ts')],
    outfile: join(dir, LOADER),
    bundle: true,
    platform: 'node',
    target: 'node20.18',
    format: 'esm',
    logLevel: 'warning',
  });
  const at = existsSync('/proc/self/cwd') ? '/proc/self/cwd' : dir;
  const written = spawnSync(
    process.execPath,
    ['--random-seed=20', join(root, 'scripts', 'code-cache.mjs'), join(at, LOADER), join(at, mainFile)],
    {
      cwd: dir,
      // DuckDB's vendor bundle finds the addon from /proc/self/cwd/vendor/: through NODE_PATH.
      env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
      // Always pipes, whatever the build's own stdout and stderr are: a terminal, a file or a pipe
      // load different Node internals before the vendor bundles are compiled, which moves their script
      // ids and so their caches' bytes (a build under `npm test` wrote another ajv cache than one in a
      // terminal). What the producer says is passed on afterwards.
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    },
  );
  process.stderr.write(Buffer.concat([written.stdout ?? Buffer.alloc(0), written.stderr ?? Buffer.alloc(0)]));
  return written;
}
