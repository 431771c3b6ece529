// Build time only (scripts/build.mjs): an esbuild plugin that edits two undici files so that neither
// reads node:http while the bundle loads. The bundle's `require` defers node:http
// (src/boot/deferred-builtins.ts), but these two read it at their top, which would load it at once:
//   - core/util.js destructures `{ IncomingMessage }`, used by one check when a body is destroyed;
//   - dispatcher/client.js reads `http.maxHeaderSize` for a default that our Agent always sets.
// Each edit reads the value where it is used instead. Should undici's text differ (another
// version), the file is bundled as it is and the build warns: the CLI is correct either way, only
// ~2 ms slower to start (test/e2e/deferred-builtins.test.ts then fails, so it does not go unnoticed).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Each edited file: exact texts and what replaces them; every text must occur exactly once. */
export const EDITS = {
  [join('lib', 'core', 'util.js')]: [
    ["const { IncomingMessage } = require('node:http')", "const http = require('node:http')"],
    ['constructor === IncomingMessage)', 'constructor === http.IncomingMessage)'],
  ],
  [join('lib', 'dispatcher', 'client.js')]: [
    [
      `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
      `const getDefaultNodeMaxHeaderSize = () => {
  if (http && http.maxHeaderSize && Number.isInteger(http.maxHeaderSize) && http.maxHeaderSize > 0) return http.maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
    ],
  ],
};

/** The edited source, or undefined when some text is not found exactly once. */
export function applyEdits(source, edits) {
  let edited = source;
  for (const [from, to] of edits) {
    if (edited.split(from).length !== 2) return undefined;
    edited = edited.replace(from, () => to);
  }
  return edited;
}

export function undiciDeferHttp({ warn = (text) => process.stderr.write(`build: warning: ${text}\n`) } = {}) {
  return {
    name: 'undici-defer-http',
    setup(build) {
      build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/](core[\\/]util|dispatcher[\\/]client)\.js$/ }, async (args) => {
        const file = Object.keys(EDITS).find((name) => args.path.endsWith(join('undici', name)));
        if (file === undefined) return undefined;
        const edited = applyEdits(await readFile(args.path, 'utf8'), EDITS[file]);
        if (edited === undefined) {
          warn(`undici/${file} is not as expected: node:http loads at start-up (~2 ms slower, nothing else changes)`);
          return undefined;
        }
        return { contents: edited, loader: 'js' };
      });
    },
  };
}
