// Bundles src/ into dist/ with esbuild: a tiny entry (dist/cli.cjs) and every command in one
// CommonJS bundle with a V8 code cache (dist/main-HASH.cjs[.cache]; start-up time is a feature).
// `--if-stale` skips the build when dist/ is newer than every source file; `--clean` leaves no older
// command bundle behind (for npm pack).
import { build } from 'esbuild';
import { readFileSync, readdirSync, statSync, existsSync, rmSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { basename, join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCodeCache } from './code-cache-run.mjs';
import { buildEntry } from './entry-build.mjs';
import { undiciDeferHttp } from './undici-defer-http.mjs';
import { buildVendorBundles, VENDOR_GROUPS, vendorImports } from './vendor-bundles.mjs';

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
    newestMtime(join(root, 'scripts', 'code-cache.mjs')),
    newestMtime(join(root, 'scripts', 'code-cache-run.mjs')),
    newestMtime(join(root, 'scripts', 'entry-build.mjs')),
    newestMtime(join(root, 'scripts', 'undici-defer-http.mjs')),
    newestMtime(join(root, 'scripts', 'vendor-bundles.mjs')),
  );
  // Up to date only if what the last build wrote is all still there (its command bundle is named
  // on the stamp's second line).
  const built = readFileSync(stamp, 'utf8').split('\n')[1] ?? '';
  const outputs = ['cli.cjs', 'help.json', built, ...Object.keys(VENDOR_GROUPS).map((group) => join('vendor', `${group}.cjs`))];
  if (statSync(stamp).mtimeMs >= sources && built !== '' && outputs.every((name) => existsSync(join(root, 'dist', name)))) {
    if (process.argv.includes('--clean'))
      for (const name of readdirSync(join(root, 'dist')))
        if (/^main-.*\.cjs(\.cache)?$/.test(name) && !name.startsWith(built)) rmSync(join(root, 'dist', name), { force: true });
    process.exit(0);
  }
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// What `appraisal version` reports about the build (src/core/build-info.ts): the commit (with
// "+changes" when tracked files differ from it), and the date (SOURCE_DATE_EPOCH when set, for
// reproducible builds).
function gitCommit() {
  const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8', timeout: 10_000 });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return 'unknown';
  const changed = git('status', '--porcelain', '--untracked-files=no');
  return `${head.stdout.trim()}${changed.status === 0 && changed.stdout.trim() !== '' ? '+changes' : ''}`;
}
const buildDate = process.env.SOURCE_DATE_EPOCH ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000) : new Date();
const buildInfo = { version: pkg.version, commit: gitCommit(), date: buildDate.toISOString() };
// Build beside dist/ and move files in one by one, the command bundle and its cache before the
// entry, so a CLI process that is running while a rebuild happens never sees a missing file.
const dist = join(root, 'dist');
const staging = join(root, `.dist-${process.pid}`);
rmSync(staging, { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  // The keychain binding and DuckDB (sync, Parquet export) are native addons: resolved from node_modules at run
  // time. pg's optional native driver (pg-native) is never used: left out rather than bundled.
  external: ['@napi-rs/keyring', '@duckdb/node-api', 'pg-native'],
  define: { __APPRAISAL_VERSION__: JSON.stringify(pkg.version), __APPRAISAL_BUILD__: JSON.stringify(buildInfo) },
  sourcemap: false,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

// 1. Every command, in one CommonJS file named after a hash of its content (main-HASH.cjs): loaded
// by src/boot/bundle-loader.ts with a V8 code cache, which Node 20 offers only to scripts, not to ES
// modules. Modules still initialize lazily (esbuild wraps each one), so a command runs only the
// code it imports. undici's HTTP/2 client is never used (no allowH2) but loads node:http2 at its
// top (~10 ms): it gets an empty stand-in instead. Two undici files are edited so they do not read
// node:http while loading, which src/boot/deferred-builtins.ts defers (scripts/undici-defer-http.mjs).
const noHttp2 = {
  name: 'no-http2',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
      args.importer.includes(`${join('undici', 'lib', 'dispatcher', 'client-h2.js')}`)
        ? { path: 'http2', namespace: 'no-http2' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-http2' }, () => ({ contents: 'module.exports = { constants: {} };', loader: 'js' }));
  },
};
// 0. Libraries only some commands use, outside the command bundle (scripts/vendor-bundles.mjs).
await buildVendorBundles(root, staging, common);

// zod re-exports its ~45 error-message locales as `z.locales` (~270 KB minified, all initialized
// when zod is). Only English is ever used (zod configures it itself, from locales/en.js): the
// namespace keeps just `en`.
const zodLocalesEnglishOnly = {
  name: 'zod-locales-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};\n`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};
const bundled = await build({
  ...common,
  entryPoints: { main: join(root, 'src', 'main.ts') },
  outdir: staging,
  format: 'cjs',
  entryNames: '[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  // Non-ASCII characters escaped (esbuild's default, made explicit): the loader reads it as latin1.
  charset: 'ascii',
  // import() of a bundled module or of the keychain addon becomes require(): a vm.Script has no
  // module loader for import().
  supported: { 'dynamic-import': false },
  define: { ...common.define, 'import.meta.url': '__appraisalBundleUrl' },
  banner: { js: "var __appraisalBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [noHttp2, undiciDeferHttp(), vendorImports(root), zodLocalesEnglishOnly],
  metafile: true,
});
const mainFile = Object.keys(bundled.metafile.outputs)
  .map((path) => basename(path))
  .find((name) => name.endsWith('.cjs'));
if (readFileSync(join(staging, mainFile)).some((byte) => byte > 0x7f)) {
  throw new Error(`${mainFile} holds non-ASCII bytes: src/boot/bundle-loader.ts reads it as latin1`);
}

// 2. The entry (dist/cli.cjs, tiny): answers --version and pre-rendered --help itself and loads the
// command bundle for everything else (scripts/entry-build.mjs). CommonJS, like bin/appraisal.js
// (bin/package.json): starting Node's ES module loader cost ~5-8 ms of CPU and ~10 ms at every start.
await buildEntry({ root, common, mainFile, outfile: join(staging, 'cli.cjs'), sea: false });

// 3. A build-time helper (removed below): help rendering.
await build({
  ...common,
  entryPoints: {
    'help-render': join(root, 'src', 'boot', 'help-render.ts'),
  },
  outdir: staging,
  format: 'esm',
  splitting: true,
  chunkNames: 'build-chunks/[name]-[hash]',
  // Bundled CommonJS dependencies may call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __appraisalCreateRequire } from 'node:module'; const require = __appraisalCreateRequire(import.meta.url);",
  },
});
// Every command's --help, pre-rendered by commander itself (src/boot/help-render.ts): cli.ts answers
// `appraisal PATH --help` from it without loading the command bundle.
const { renderAllHelp } = await import(pathToFileURL(join(staging, 'help-render.js')).href);
writeFileSync(join(staging, 'help.json'), JSON.stringify(await renderAllHelp(pkg.version)));

// 4. The V8 code cache of the command bundle, written by a fresh process (scripts/code-cache.mjs)
// with the same V8 flags a run has. Best effort: without it the CLI works, only starts slower.
// The same bytes wherever the build runs (scripts/code-cache-run.mjs).
const cached = await writeCodeCache(staging, mainFile);
if (cached.status !== 0)
  process.stderr.write(
    `build: warning: no V8 code cache for ${mainFile} (exit ${cached.status ?? cached.signal}); the CLI starts slower without it\n`,
  );

mkdirSync(dist, { recursive: true });
rmSync(join(dist, 'chunks'), { recursive: true, force: true });
rmSync(join(dist, 'cli.js'), { force: true });
// The vendor files first, each replaced in one rename; files of groups that no longer exist go.
mkdirSync(join(dist, 'vendor'), { recursive: true });
const vendorFiles = Object.keys(VENDOR_GROUPS).flatMap((group) => [`${group}.cjs`, `${group}.cjs.cache`]);
// A vendor bundle's code cache is bound to its source (src/boot/bundle-loader.ts): one left from an
// older build, or missing, only means that bundle is compiled at each run.
for (const name of vendorFiles) {
  if (existsSync(join(staging, 'vendor', name))) renameSync(join(staging, 'vendor', name), join(dist, 'vendor', name));
  else rmSync(join(dist, 'vendor', name), { force: true });
}
for (const name of readdirSync(join(dist, 'vendor'))) if (!vendorFiles.includes(name)) rmSync(join(dist, 'vendor', name), { force: true });
for (const name of [mainFile, `${mainFile}.cache`, 'help.json', 'cli.cjs']) {
  if (existsSync(join(staging, name))) renameSync(join(staging, name), join(dist, name));
}
// Older command bundles (a process started before this build may still be loading one: they are
// removed only by the next build). `--clean` (npm pack's prepack) removes them all: the package
// holds exactly one command bundle.
const previous = existsSync(stamp) && !process.argv.includes('--clean') ? readFileSync(stamp, 'utf8').split('\n')[1] : undefined;
for (const name of readdirSync(dist)) {
  if (/^main-.*\.cjs(\.cache)?$/.test(name) && !name.startsWith(mainFile) && (previous === undefined || !name.startsWith(previous)))
    rmSync(join(dist, name), { force: true });
}
rmSync(staging, { recursive: true, force: true });
writeFileSync(stamp, `${new Date().toISOString()}\n${mainFile}\n`);
