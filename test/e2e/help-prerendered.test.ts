// `appraisal PATH --help` is answered from dist/help.json (rendered by commander at build time) when
// stdout is not a terminal. Every command's entry must be exactly what commander prints for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandPaths, renderHelp } from '../../src/boot/help-render.js';
import { ROOT } from '../helpers/env.js';
import { runCli } from '../helpers/spawn.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const prerendered = JSON.parse(readFileSync(join(ROOT, 'dist', 'help.json'), 'utf8')) as Record<string, string>;

describe('pre-rendered help', () => {
  it('holds every command, each exactly as commander renders it', { timeout: 120_000 }, async () => {
    const paths = await commandPaths();
    expect(paths.length).toBeGreaterThan(50);
    expect(Object.keys(prerendered).sort()).toEqual([...paths].sort());
    for (const path of paths) expect(prerendered[path], `appraisal ${path} --help`).toBe(await renderHelp(path, pkg.version));
  });

  it('the binary prints it, and the same as commander does when the fast path is not taken', async () => {
    const cases = [['props', 'list'], ['mock'], [], ['keys', 'rotate']];
    const [fast, slow] = await Promise.all([
      Promise.all(cases.map((path) => runCli([...path, '--help']))),
      // An option before --help: main() and commander answer.
      Promise.all(cases.map((path) => runCli([...path, '-q', '--help']))),
    ]);
    cases.forEach((path, i) => {
      expect(fast[i]).toMatchObject({ code: 0, stderr: '', stdout: prerendered[path.join(' ')] });
      expect(slow[i]!.stdout).toBe(fast[i]!.stdout);
    });
  });

  it('the binary prints the version of package.json', async () => {
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});
