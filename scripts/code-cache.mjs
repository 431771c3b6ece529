// Build time only (scripts/build.mjs): writes the V8 code cache of the command bundle.
//
//   node scripts/code-cache.mjs STAGING/bundle-loader.js STAGING/main-HASH.cjs
//
// Loads the bundle the way a run does (src/bundle-loader.ts, same V8 flags), then runs one typical
// command in-process so the functions a run compiles are in the cache, not only the top level:
// `props get` against a closed local port (connection refused at once, no retries, no service
// needed, a private config directory). Measured for `props get` against the bench mock: a cache of
// the top level only saved ~25 ms of CPU; this one ~50 ms.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [loaderPath, bundlePath] = process.argv.slice(2);
const { loadBundle, sealCache } = await import(pathToFileURL(loaderPath).href);
const { exports: bundle, script } = loadBundle(pathToFileURL(bundlePath), { useCache: false });

const home = mkdtempSync(join(tmpdir(), 'appraisal-code-cache-'));
const sink = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });
try {
  await bundle.main({
    argv: ['props', 'get', '00000000-0000-4000-8000-000000000000', '-o', 'json', '--retries', '0', '--timeout', '5'],
    env: { HOME: home, APPRAISAL_CONFIG_DIR: join(home, 'config'), APPRAISAL_BASE_URL: 'https://127.0.0.1:9', APPRAISAL_API_KEY: 'apk_codecache_0000000000000000000000000000' },
    stdin: Readable.from([]),
    stdout: sink(),
    stderr: sink(),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: home,
    signal: new AbortController().signal,
    version: '0.0.0',
  });
} finally {
  rmSync(home, { recursive: true, force: true });
}
writeFileSync(`${bundlePath}.cache`, sealCache(script.createCachedData()));
// A keep-alive socket or timer of the command must not hold the build.
process.exit(0);
