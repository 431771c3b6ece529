// Build time only (scripts/build.mjs): libraries that only some commands use, each group bundled
// into its own CommonJS file under dist/vendor/, outside the command bundle.
//
// Why: every command reads, and V8 deserializes the code cache of, the whole command bundle. These
// libraries were about 850 KB of its 2.2 MB (the mock's certificate generator alone ~360 KB) and
// no short command runs them: `props get` measured ~7 ms less CPU without them (CHANGELOG). A
// command that needs one loads its file with Node's require (no code cache: a few milliseconds,
// once, where the library's own work is far larger: schema validation, uploads, the mock).
//
// How: in the command bundle an import of a listed package becomes
// `require('./vendor/GROUP.cjs')[PACKAGE]`, read when the importing module initializes, which for
// each of them is already on first use (dynamic imports, or modules only those commands load).
// A group whose loading shows in a short command's time also gets a V8 code cache
// (scripts/code-cache.mjs writes GROUP.cjs.cache for ajv and duckdb; src/boot/bundle-loader.ts reads it).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

/** Each group's file and the import specifiers it serves, exactly as the sources write them. */
export const VENDOR_GROUPS = {
  // --validate and `spec`: JSON Schema validation of records against the description (its patterns
  // compiled with RE2, re2js: linear time, src/core/description/linear-patterns.ts).
  ajv: ['ajv', 'ajv/dist/2020.js', 'ajv-formats', 're2js'],
  // `<family> import`: reading CSV files.
  'csv-parse': ['csv-parse'],
  // `sync` into DuckDB, Parquet export: DuckDB's JavaScript API (its native addon stays in
  // node_modules: see DUCKDB below). Its 120 files took ~95 ms to load; one file with a code cache ~20 ms.
  duckdb: ['@duckdb/node-api'],
  // `files upload`: multipart bodies with a known length (form-data brings mime-db, ~140 KB).
  'form-data': ['form-data'],
  // --query.
  jmespath: ['@jmespath-community/jmespath'],
  // `appraisal mcp`: the Model Context Protocol SDK (server and its stdio transport).
  mcp: [
    '@modelcontextprotocol/sdk/server/index.js',
    '@modelcontextprotocol/sdk/server/stdio.js',
    '@modelcontextprotocol/sdk/types.js',
    'p-limit',
  ],
  // `appraisal mock`: the mock service itself (it never imports the CLI), with its TLS certificate
  // generator and multipart parser. A project module is named by its path from the root.
  mock: ['src/mock/index.ts'],
  // `sync --to postgres://…`: the PostgreSQL driver, its URL parser and libpq's password file reader.
  pg: ['pg', 'pg-connection-string', 'pgpass/lib/helper.js'],
  // `smoke --checks FILE.yaml`.
  yaml: ['yaml'],
};

const NAMESPACE = 'vendor';
const groupOf = new Map(Object.entries(VENDOR_GROUPS).flatMap(([group, specifiers]) => specifiers.map((specifier) => [specifier, group])));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const isProjectModule = (specifier) => specifier.startsWith('src/');
/** How the group's entry requires a specifier: a project module by its path from the root. */
const entryRequire = (specifier) => JSON.stringify(isProjectModule(specifier) ? `./${specifier}` : specifier);

/** The relative path the command bundle requires a group's file by. */
export const vendorPath = (group) => `./vendor/${group}.cjs`;

/**
 * DuckDB's JavaScript is bundled, its native addon is not: `@duckdb/node-bindings` (which picks
 * the platform's addon) is required from where the installed `@duckdb/node-api` resolves it, so
 * any layout npm or pnpm makes finds it. The bundled JavaScript is used only with the addon of its
 * own version: when the installed @duckdb/node-api is another version (a newer one satisfying the
 * dependency's range), the installed package itself is loaded, as it was before bundling. In the
 * single executable (its require has no `resolve`: it loads nothing from disk) DuckDB is not found,
 * as before.
 */
const DUCKDB = {
  group: 'duckdb',
  version: (root) =>
    JSON.parse(readFileSync(createRequire(join(root, 'package.json')).resolve('@duckdb/node-api/package.json'), 'utf8')).version,
  entry: (version) => `if (!require.resolve)
  throw Object.assign(new Error("Cannot find module '@duckdb/node-api': the single executable holds no such module and loads none from disk"), {
    code: 'MODULE_NOT_FOUND',
  });
const installed = require('node:module').createRequire(__filename);
module.exports = {
  '@duckdb/node-api':
    installed('@duckdb/node-api/package.json').version === ${JSON.stringify(version)} ? require('@duckdb/node-api') : installed('@duckdb/node-api'),
};
`,
  plugin: {
    name: 'duckdb-bindings',
    setup(b) {
      b.onResolve({ filter: /^@duckdb\/node-bindings$/ }, () => ({ path: 'bindings', namespace: 'duckdb-bindings' }));
      b.onLoad({ filter: /.*/, namespace: 'duckdb-bindings' }, () => ({
        contents: `const api = '@duckdb/node-api';
const { createRequire } = require('node:module');
const bindings = createRequire(require.resolve(api)).resolve('@duckdb/node-bindings');
module.exports = glibcAddon() ?? require(bindings);

// @duckdb/node-bindings asks detect-libc whether this Linux is musl before it picks the addon:
// loading detect-libc and asking costs 10-25 ms of a sync's start. On Linux x64/arm64 the glibc
// addon (resolved from the bindings package, as it resolves it) is tried first; where it is not
// installed or does not load (musl), the package's own way.
function glibcAddon() {
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return undefined;
  try {
    return createRequire(bindings)('@duckdb/node-bindings-linux-' + process.arch + '/duckdb.node');
  } catch {
    return undefined;
  }
}
`,
        loader: 'js',
      }));
    },
  },
};

/** Writes OUTDIR/vendor/GROUP.cjs for every group: `module.exports = { [specifier]: require(specifier) }`. */
export async function buildVendorBundles(root, outdir, common) {
  await Promise.all(
    Object.entries(VENDOR_GROUPS).map(([group, specifiers]) => {
      const duckdb = group === DUCKDB.group;
      return build({
        ...common,
        // DuckDB's JavaScript is the duckdb group's to bundle (the command bundle keeps it external).
        external: duckdb ? common.external.filter((name) => !name.startsWith('@duckdb/')) : common.external,
        plugins: duckdb ? [DUCKDB.plugin] : [],
        stdin: {
          contents: duckdb
            ? DUCKDB.entry(DUCKDB.version(root))
            : `module.exports = {\n${specifiers.map((specifier) => `  ${JSON.stringify(specifier)}: require(${entryRequire(specifier)}),`).join('\n')}\n};\n`,
          resolveDir: root,
          sourcefile: `vendor-${group}.cjs`,
          loader: 'js',
        },
        outfile: join(outdir, 'vendor', `${group}.cjs`),
        format: 'cjs',
      });
    }),
  );
}

/** The command bundle's side: imports of a vendored package read it from the group's file. */
export function vendorImports(root) {
  const packages = [...groupOf.keys()].filter((specifier) => !isProjectModule(specifier));
  const specifiers = new RegExp(`^(${packages.map(escape).join('|')})$`);
  // A project module is imported by a relative path that ends in its folder and name, .js for .ts.
  const projectModules = new Map([...groupOf.keys()].filter(isProjectModule).map((specifier) => [join(root, specifier), specifier]));
  const tails = [...projectModules.values()].map(
    (specifier) => `${escape(basename(dirname(specifier)))}[\\\\/]${escape(basename(specifier, '.ts'))}`,
  );
  const relativeImport = new RegExp(`[\\\\/](${tails.join('|')})\\.js$`);
  return {
    name: 'vendor-imports',
    setup(b) {
      b.onResolve({ filter: specifiers }, (args) => ({ path: args.path, namespace: NAMESPACE }));
      b.onResolve({ filter: relativeImport }, (args) => {
        const specifier = projectModules.get(join(args.resolveDir, args.path).replace(/\.js$/, '.ts'));
        return specifier === undefined || args.namespace === NAMESPACE ? undefined : { path: specifier, namespace: NAMESPACE };
      });
      b.onResolve({ filter: /^\.\/vendor\/[\w-]+\.cjs$/ }, (args) =>
        args.namespace === NAMESPACE ? { path: args.path, external: true } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(vendorPath(groupOf.get(args.path)))})[${JSON.stringify(args.path)}];\n`,
        loader: 'js',
      }));
    },
  };
}
