// Build time only: the entry (src/boot/cli.ts) bundled on its own, tiny, for dist/cli.cjs
// (scripts/build.mjs) and for the single executable (scripts/package-sea.mjs). It answers --version
// and pre-rendered --help itself and loads the command bundle for everything else: from dist/ with
// its code cache (src/boot/bundle-loader.ts), or, in the executable, from its assets
// (src/boot/sea-bundle.ts, and sea-files.ts in place of dist-files.ts).
import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * @param {{ root: string, common: object, mainFile: string, outfile: string, sea: boolean }} options
 */
export async function buildEntry({ root, common, mainFile, outfile, sea }) {
  const boot = join(root, 'src', 'boot');
  const entryPlugin = {
    name: 'entry',
    setup(b) {
      // `await import('../main.js')` in cli.ts: the command bundle, loaded on first use.
      b.onResolve({ filter: /^\.\.\/main\.js$/ }, (args) =>
        args.importer === join(boot, 'cli.ts') ? { path: 'main', namespace: 'command-bundle' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'command-bundle' }, () => ({
        resolveDir: boot,
        loader: 'js',
        contents: sea
          ? `import { loadCommandBundle } from './sea-bundle.ts';
const loaded = loadCommandBundle(${JSON.stringify(mainFile)}).exports;
export const main = loaded.main;
export const InterruptedError = loaded.InterruptedError;`
          : `import { loadBundle } from './bundle-loader.ts';
const loaded = loadBundle(new URL(${JSON.stringify(`./${mainFile}`)}, import.meta.url)).exports;
export const main = loaded.main;
export const InterruptedError = loaded.InterruptedError;`,
      }));
      if (sea)
        b.onResolve({ filter: /^\.\/dist-files\.js$/ }, (args) =>
          args.importer === join(boot, 'cli.ts') ? { path: join(boot, 'sea-files.ts') } : undefined,
        );
    },
  };
  await build({
    ...common,
    entryPoints: [join(boot, 'cli.ts')],
    outfile,
    format: 'cjs',
    supported: { 'dynamic-import': false },
    define: { ...common.define, 'import.meta.url': '__appraisalEntryUrl' },
    banner: { js: "var __appraisalEntryUrl = require('node:url').pathToFileURL(__filename).href;" },
    // bin/appraisal.js calls run() of dist/cli.cjs; the executable's main script calls it itself.
    ...(sea ? { footer: { js: 'module.exports.run();' } } : {}),
    plugins: [entryPlugin],
  });
}
