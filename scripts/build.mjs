// Bundles src/ into dist/ with esbuild. Code splitting keeps the entry chunk tiny: every command,
// the HTTP core and the mock are separate chunks loaded on demand (start-up time is a feature).
// `--if-stale` skips the build when dist/ is newer than every source file.
import { build } from 'esbuild';
import { readFileSync, readdirSync, statSync, existsSync, rmSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

if (process.argv.includes('--if-stale') && existsSync(stamp)) {
  const sources = Math.max(
    newestMtime(join(root, 'src')),
    newestMtime(join(root, 'package.json')),
    newestMtime(join(root, 'openapi.json')),
    newestMtime(join(root, 'scripts', 'build.mjs')),
  );
  if (statSync(stamp).mtimeMs >= sources) process.exit(0);
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Build beside dist/ and move files in one by one, chunks before the entry, so a CLI process that
// is running while a rebuild happens never sees a missing file.
const dist = join(root, 'dist');
const staging = join(root, `.dist-${process.pid}`);
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints: { cli: join(root, 'src', 'cli.ts'), 'help-render': join(root, 'src', 'help-render.ts') },
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // The keychain binding is a native addon: it must be resolved from node_modules at run time.
  external: ['@napi-rs/keyring'],
  define: { __APPRAISAL_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies may call require() for Node built-ins.
  banner: { js: "import { createRequire as __appraisalCreateRequire } from 'node:module'; const require = __appraisalCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: false,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
// Every command's --help, pre-rendered by commander itself (src/help-render.ts): cli.ts answers
// `appraisal PATH --help` from it without loading commander. Only the build uses help-render.js.
const { renderAllHelp } = await import(pathToFileURL(join(staging, 'help-render.js')).href);
writeFileSync(join(staging, 'help.json'), JSON.stringify(await renderAllHelp(pkg.version)));
rmSync(join(staging, 'help-render.js'));
mkdirSync(join(dist, 'chunks'), { recursive: true });
for (const name of readdirSync(join(staging, 'chunks'))) renameSync(join(staging, 'chunks', name), join(dist, 'chunks', name));
renameSync(join(staging, 'help.json'), join(dist, 'help.json'));
renameSync(join(staging, 'cli.js'), join(dist, 'cli.js'));
rmSync(staging, { recursive: true, force: true });
writeFileSync(stamp, new Date().toISOString());
