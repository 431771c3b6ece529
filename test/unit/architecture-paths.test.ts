// docs/ARCHITECTURE.md stays true to the tree (issue 34 §7): every file or folder it names exists —
// in the layout block, each file at the start of a line under the folder heading it, and in the prose
// every `path` in backquotes, as written from the repository's root, src/ (`core/io.ts`), src/core/ or src/mock/, or
// for a bare file name, somewhere in the repository. Placeholders (`<noun>`, HASH) and build output
// (dist/) are not files of the repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
const FILE = /^[\w.@/-]+\.(?:ts|mjs|cjs|js|json|md)$/;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP_DIRS.has(entry.name) || entry.name.startsWith('.dist-')) return [];
    const path = `${prefix}${entry.name}`;
    return entry.isDirectory() ? filesUnder(join(dir, entry.name), `${path}/`) : [path];
  });
}

const ALL = filesUnder(ROOT);
const placeholder = (path: string) => /[<>*…]|HASH|PLATFORM|GROUP|NAME\b/.test(path) || path.startsWith('dist/');

/** Where a path in the prose may be written from. */
function exists(path: string): boolean {
  const bare = path.replace(/\/$/, '');
  if (!bare.includes('/')) return ALL.some((file) => file === bare || file.endsWith(`/${bare}`) || file.includes(`/${bare}/`));
  return ['', 'src/', 'src/commands/', 'src/core/', 'src/mock/', 'test/'].some((base) => existsSync(join(ROOT, base, bare)));
}

describe('docs/ARCHITECTURE.md names only what exists', () => {
  it('every file of the layout block is in the folder that heads it', () => {
    const block = /^```\n([\s\S]*?)^```/m.exec(DOC)![1]!;
    const missing: string[] = [];
    let checked = 0;
    let dir = '';
    for (const line of block.split('\n')) {
      const head = /^(\S+)/.exec(line)?.[1];
      if (head !== undefined) {
        if (placeholder(head)) continue;
        if (head.endsWith('/')) dir = head;
        if (!exists(head)) missing.push(head);
        continue;
      }
      // An indented line starts with the files it describes (`  sink.ts sinks.ts    the one …`).
      const names = /^ {2,}(\S+(?: \S+)*?)(?: {2,}|$)/.exec(line)?.[1]?.split(' ') ?? [];
      if (!names.every((name) => FILE.test(name) || name.endsWith('/'))) continue;
      for (const name of names) {
        if (placeholder(name)) continue;
        checked++;
        const under = filesUnder(join(ROOT, dir));
        const bare = name.replace(/\/$/, '');
        if (!under.some((file) => file === bare || file.endsWith(`/${bare}`) || file.startsWith(`${bare}/`) || file.includes(`/${bare}/`)))
          missing.push(`${dir}${name}`);
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(missing).toEqual([]);
  });

  it('every path in backquotes in the prose exists', () => {
    const prose = DOC.replace(/^```\n[\s\S]*?^```/m, '');
    const named = [...prose.matchAll(/`([^`\s]+)`/g)]
      .map((match) => match[1]!)
      .filter((text) => FILE.test(text) || /^(?:src|test|scripts|docs|bin)\/[\w/.-]*$/.test(text));
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((path) => !placeholder(path) && !exists(path))).toEqual([]);
  });
});
