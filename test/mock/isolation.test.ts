// The mock is a separate program that ships in the same bundle: it never imports the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const MOCK = join(import.meta.dirname, '..', '..', 'src', 'mock');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('src/mock', () => {
  it('imports nothing from src/core or src/commands', () => {
    const files = sources(MOCK);
    expect(files.length).toBeGreaterThan(20);
    const offending = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)]
        .map((match) => match[1] ?? match[2]!)
        .filter((specifier) => /(^|\/)(core|commands)\//.test(specifier) || /^\.\.\/\.\.\/(main|cli)\.js$/.test(specifier))
        .map((specifier) => `${relative(MOCK, file)}: ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});
