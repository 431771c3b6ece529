// Build time only (scripts/build.mjs): the --help text of every command, rendered by commander
// through main() exactly as a run of `appraisal PATH --help` with stdout not a terminal renders it,
// written to dist/help.json. cli.ts answers such a run from that file without loading commander or
// the command's modules (issue 19: building the tree cost ~1.5x a bare `node -e 0`).
import { Readable, Writable } from 'node:stream';
import { loadAllNouns } from '../commands/registry.js';
import { main } from '../main.js';

/** Every command path (`''` the root, `props`, `props list`, …), hidden ones left out: read from the declarations. */
export async function commandPaths(): Promise<string[]> {
  const paths: string[] = [''];
  for (const { noun, module } of await loadAllNouns()) {
    paths.push(noun.name);
    if (Array.isArray(module)) for (const verb of module) if (!verb.hidden) paths.push(`${noun.name} ${verb.name}`);
  }
  return paths;
}

/** What `appraisal PATH --help` prints on a stdout that is not a terminal. */
export async function renderHelp(path: string, version: string, env: Record<string, string | undefined> = {}): Promise<string> {
  let text = '';
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  });
  const stderr = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const argv = [...(path === '' ? [] : path.split(' ')), '--help'];
  const code = await main({
    argv,
    env,
    stdin: Readable.from([]),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: process.cwd(),
    signal: new AbortController().signal,
    version,
  });
  if (code !== 0) throw new Error(`appraisal ${argv.join(' ')} exited ${code}`);
  return text;
}

export async function renderAllHelp(version: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const path of await commandPaths()) texts[path] = await renderHelp(path, version);
  return texts;
}
