// `npm run package`: the CLI as one executable file that needs no Node, for the machine it runs on:
// dist/appraisal-<platform>-<arch> with dist/appraisal-<platform>-<arch>.sha256 beside it
// (`sha256sum -c` reads it). Node's single executable applications (Node 20 docs, "Single executable
// applications"): a copy of this Node binary with a blob injected by postject, holding
//   - the main script: the entry (src/boot/cli.ts) bundled as for dist/cli.cjs, but reading its
//     files from the executable's assets (src/boot/sea-files.ts, sea-bundle.ts);
//   - assets, named as in dist/: help.json, the command bundle and its V8 code cache, the vendor
//     bundles (the mock among them), and the keychain's native addon (src/boot/sea-native.ts).
// Needs a built dist/ (npm run package builds it when stale).
//
//   node scripts/package-sea.mjs [--out DIR]     (default dist/)
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntry } from './entry-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const outAt = process.argv.indexOf('--out');
const out = outAt >= 0 ? resolve(process.argv[outAt + 1]) : dist;
const name = `appraisal-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`;
// Node's fixed fuse for single executable applications (Node 20 docs).
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function fail(message) {
  process.stderr.write(`package: error: ${message}\n`);
  process.exit(1);
}

const stamp = join(dist, '.build-stamp');
if (!existsSync(stamp)) fail('dist/ is not built: run `npm run build` first (npm run package does)');
const mainFile = readFileSync(stamp, 'utf8').split('\n')[1];
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The keychain addon of this platform, from the installed @napi-rs/keyring's platform package. */
function keyringAddon() {
  const fromKeyring = createRequire(join(root, 'node_modules', '@napi-rs', 'keyring', 'index.js'));
  for (const suffix of ['-gnu', '-musl', '-msvc', '']) {
    try {
      const dir = dirname(fromKeyring.resolve(`@napi-rs/keyring-${process.platform}-${process.arch}${suffix}/package.json`));
      const addon = readdirSync(dir).find((file) => file.endsWith('.node'));
      if (addon) return join(dir, addon);
    } catch {
      // Not installed for this variant.
    }
  }
  return undefined;
}

const work = join(root, `.sea-${process.pid}`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
try {
  // 1. The main script: the entry, reading from the assets.
  await buildEntry({
    root,
    common: {
      bundle: true,
      platform: 'node',
      target: 'node20.18',
      external: ['@napi-rs/keyring'],
      define: { __APPRAISAL_VERSION__: JSON.stringify(pkg.version) },
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
    },
    mainFile,
    outfile: join(work, 'entry.cjs'),
    sea: true,
  });

  // 2. The blob: main script and assets.
  const assets = { 'help.json': join(dist, 'help.json'), [mainFile]: join(dist, mainFile) };
  if (existsSync(join(dist, `${mainFile}.cache`))) assets[`${mainFile}.cache`] = join(dist, `${mainFile}.cache`);
  for (const file of readdirSync(join(dist, 'vendor'))) if (file.endsWith('.cjs')) assets[`vendor/${file}`] = join(dist, 'vendor', file);
  const addon = keyringAddon();
  if (addon) assets['keyring.node'] = addon;
  else
    process.stderr.write(
      `package: warning: no keychain addon for ${process.platform}-${process.arch}: auth login will name the alternatives\n`,
    );
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: join(work, 'entry.cjs'),
      output: join(work, 'sea-prep.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets,
    }),
  );
  const blob = spawnSync(process.execPath, ['--experimental-sea-config', config], { cwd: work, encoding: 'utf8' });
  if (blob.status !== 0) fail(`node --experimental-sea-config failed: ${blob.stderr.trim()}`);

  // 3. A copy of this Node with the blob injected.
  const executable = join(work, name);
  copyFileSync(process.execPath, executable);
  chmodSync(executable, 0o755);
  const { inject } = createRequire(import.meta.url)('postject');
  await inject(executable, 'NODE_SEA_BLOB', readFileSync(join(work, 'sea-prep.blob')), {
    sentinelFuse: SENTINEL_FUSE,
    machoSegmentName: process.platform === 'darwin' ? 'NODE_SEA' : undefined,
  });

  // 4. Its checksum, in the form `sha256sum -c` reads, then both into place.
  const digest = createHash('sha256').update(readFileSync(executable)).digest('hex');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(work, `${name}.sha256`), `${digest}  ${name}\n`);
  renameSync(executable, join(out, name));
  renameSync(join(work, `${name}.sha256`), join(out, `${name}.sha256`));
  process.stdout.write(`${join(out, name)}\n${digest}  ${name}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
