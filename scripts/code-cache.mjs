// Build time only (scripts/build.mjs): writes the V8 code cache of the command bundle.
//
//   node scripts/code-cache.mjs STAGING/bundle-loader.js STAGING/main-HASH.cjs
//
// Loads the bundle the way a run does (src/boot/bundle-loader.ts, same V8 flags), then runs one typical
// command in-process so the functions a run compiles are in the cache, not only the top level:
// `props get ID -o json`, twice, against a small loopback HTTP service started here (plain HTTP is
// allowed to loopback) with a private config directory: the first run discovers and caches the
// service's description, the second reads the cached one, as every later run of a user does; both
// read a real record and print it. Measured for `props get` against the bench mock: a cache of the
// top level only saved ~25 ms of CPU; one from a run that failed to connect ~50 ms; this one ~4 ms
// more (the answer's parsing and output were compiled on every run before).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [loaderPath, bundlePath] = process.argv.slice(2);
const { loadBundle, sealCache } = await import(pathToFileURL(loaderPath).href);
const { exports: bundle, script } = loadBundle(pathToFileURL(bundlePath), { useCache: false });

const ID = '00000000-0000-4000-8000-000000000000';
const description = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'openapi.json'));
const record = JSON.stringify({
  id: ID,
  name: 'Code Cache Plaza',
  address: { line1: '1 Main St', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
  propertyType: 'office',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
});
/** Longer than undici's timer tick (lib/util/timers.js: 1000 / 2 − 1 ms). */
const TICK_MS = 600;
/** Longer than the second after which a DuckDB connection prunes its prepared statements. */
const PRUNE_AFTER_MS = 1_050;
let answered = 0;
const service = createServer((request, response) => {
  const send = (status, body) =>
    response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_codecache' }).end(body);
  if (request.url === '/api/openapi.json') send(200, description);
  // The first answer comes after undici's timer tick (every ~0.5 s while a request is open): a slow
  // build ran the tick and a fast one did not, so the cache held its function or not (2 builds in 9
  // under load). Now every build runs it: the same cache bytes wherever it is built (code-cache-run.mjs).
  else if (request.url === `/api/properties/${ID}`) setTimeout(() => send(200, record), answered++ === 0 ? TICK_MS : 0);
  else send(404, JSON.stringify({ error: { code: 'not_found', message: 'not found' } }));
});
await new Promise((resolve) => service.listen(0, '127.0.0.1', resolve));

const home = mkdtempSync(join(tmpdir(), 'appraisal-code-cache-'));
let printed = '';
const sink = () => new Writable({ write: (chunk, _encoding, callback) => callback(void (printed += chunk)) });
const env = {
  HOME: home,
  APPRAISAL_CONFIG_DIR: join(home, 'config'),
  APPRAISAL_BASE_URL: `http://127.0.0.1:${service.address().port}`,
  APPRAISAL_API_KEY: 'apk_codecache_0000000000000000000000000000',
};
try {
  for (let run = 0; run < 2; run++) {
    printed = '';
    const code = await bundle.main({
      argv: ['props', 'get', ID, '-o', 'json', '--retries', '0', '--timeout', '5'],
      env,
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
    // Not fatal (the cache still holds what ran), but then it is not the run it should be.
    if (code !== 0 || !printed.includes('Code Cache Plaza'))
      process.stderr.write(
        `code-cache: warning: run ${run + 1} of props get ended with exit ${code}: ${printed.trim().split('\n').pop()}\n`,
      );
  }
} finally {
  service.close();
  rmSync(home, { recursive: true, force: true });
}
writeFileSync(`${bundlePath}.cache`, sealCache(script.createCachedData()));

// Then the vendor bundles whose loading shows in a short command (scripts/vendor-bundles.mjs): each
// loaded as a run loads it and used once as the CLI uses it, so the functions a run calls are in
// its cache too. Best effort, each on its own: without a cache the bundle is compiled at each run.
const ROW = { id: ID, name: 'Code Cache Plaza', updatedAt: '2024-01-01T00:00:00.000Z' };
const VENDOR_USES = {
  // src/core/description/validate.ts: a 2020-12 validator with formats and RE2 patterns.
  ajv: (vendor) => {
    const Ajv = vendor['ajv/dist/2020.js'].default;
    const { RE2JS } = vendor.re2js;
    const regExp = Object.assign((pattern) => RE2JS.compile(RE2JS.translateRegExp(pattern)), { code: 'linearRegExp' });
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: true, code: { regExp } });
    vendor['ajv-formats'].default(ajv);
    const document = JSON.parse(description.toString('utf8'));
    ajv.addSchema({ ...document, $id: 'appraisal:cache' }, 'appraisal:cache');
    const check = ajv.compile({
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', pattern: '^[0-9a-f-]{36}$' },
        name: { type: 'string' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    });
    check(ROW);
    check({ ...ROW, id: 7, updatedAt: 'yesterday' });
  },
  // src/commands/sync/duckdb.ts: a file opened, a table written through the appender, read back.
  duckdb: async (vendor) => {
    const { DuckDBInstance } = vendor['@duckdb/node-api'];
    const dir = mkdtempSync(join(tmpdir(), 'appraisal-code-cache-'));
    try {
      const instance = await DuckDBInstance.create(join(dir, 'cache.duckdb'), { threads: '1' });
      const connection = await instance.connect();
      await connection.run('CREATE TABLE t (id VARCHAR PRIMARY KEY, name VARCHAR, updated_at TIMESTAMP WITH TIME ZONE)');
      const appender = await connection.createAppender('t', 'main');
      appender.appendVarchar(ROW.id);
      appender.appendVarchar(ROW.name);
      appender.appendNull();
      appender.endRow();
      appender.closeSync();
      await connection.run('UPDATE t SET updated_at = CAST($1 AS TIMESTAMP WITH TIME ZONE) WHERE id = $2', [ROW.updatedAt, ROW.id]);
      (await connection.runAndReadAll('SELECT id, updated_at, count(*) OVER () AS n FROM t WHERE id = $1', [ROW.id])).getRowObjectsJson();
      // A connection prunes its list of prepared statements when one is added more than a second after
      // the last prune (node-api's DuckDBPreparedStatementWeakRefCollection): a slow build ran that
      // and a fast one did not, so the cache held the prune's callback or not (the tests' build under
      // load wrote another cache). Every build now adds one after that second, as a sync longer than a
      // second does.
      await new Promise((resolve) => setTimeout(resolve, PRUNE_AFTER_MS));
      await connection.run('SELECT count(*) FROM t WHERE id = $1', [ROW.id]);
      connection.closeSync();
      instance.closeSync();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
for (const [group, use] of Object.entries(VENDOR_USES)) {
  const file = join(dirname(bundlePath), 'vendor', `${group}.cjs`);
  try {
    const vendor = loadBundle(pathToFileURL(file), { useCache: false, vendor: true });
    await use(vendor.exports);
    writeFileSync(`${file}.cache`, sealCache(vendor.script.createCachedData(), readFileSync(file, 'latin1')));
  } catch (error) {
    process.stderr.write(`code-cache: warning: no code cache for vendor/${group}.cjs: ${String(error?.message ?? error).split('\n')[0]}\n`);
  }
}
// A keep-alive socket or timer of the command must not hold the build.
process.exit(0);
