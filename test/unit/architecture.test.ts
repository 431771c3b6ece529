// The layout's arrows point one way (docs/ARCHITECTURE.md): no import cycle anywhere in src, type-only
// imports included (they are how cycles crept in before). ESLint's no-restricted-imports keeps core
// from importing commands/output and the mock from importing the CLI; this keeps the graph acyclic.
import madge from 'madge';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** Every TypeScript source file of the CLI (the mock stands apart and is left out), with its text. */
function cliSources(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(root, 'src', 'mock')) walk(path);
      } else if (entry.name.endsWith('.ts')) out.push({ file: relative(root, path), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(root, 'src'));
  return out;
}

/** The files of the CLI whose code (comments aside) matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return cliSources()
    .filter(({ text }) => pattern.test(text.replace(/^\s*(\/\/|\*|\/\*).*$/gm, '')))
    .map(({ file }) => file);
}

describe('module graph', () => {
  it('has no circular imports in src', async () => {
    const graph = await madge('src', { fileExtensions: ['ts'] });
    // Sanity: the graph really covers the source tree (a misconfigured madge would find no files and no cycles).
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(150);
    expect(graph.circular()).toEqual([]);
  });
});

describe('one place for each concern', () => {
  it('registers secrets with the redactor in one function (core/credentials/credential.ts)', () => {
    expect(cliSources().length).toBeGreaterThan(150);
    expect(filesMatching(/redactor\.register\(/)).toEqual(['src/core/credentials/credential.ts']);
  });

  it('writes the user-agent string once (core/api-client.ts)', () => {
    expect(filesMatching(/appraisal-cli\/\$\{/)).toEqual(['src/core/api-client.ts']);
  });

  it('builds API clients in one place: the context (core/factory.ts), from the one settings shape (core/api-client.ts)', () => {
    expect(filesMatching(/createApiClient\(/)).toEqual(['src/core/factory.ts', 'src/core/http/undici-api-client.ts'].sort());
    expect(filesMatching(/clientSettings\(/)).toEqual(['src/core/api-client.ts', 'src/core/factory.ts'].sort());
  });

  it('opens the OS keychain in one place (the context, core/factory.ts): commands get it as ctx.keychain()', () => {
    expect(filesMatching(/osKeychain\(/)).toEqual(['src/core/credentials/keychain.ts', 'src/core/factory.ts'].sort());
  });

  it('sets V8 flags only in the boot code (src/boot/v8-flags.ts); the application is handed what it may ask', () => {
    expect(filesMatching(/setFlagsFromString|['"]node:v8['"]/)).toEqual(['src/boot/v8-flags.ts']);
    // The entry hands the application its one V8 request, from there.
    const entry = readFileSync(join(root, 'src', 'boot', 'cli.ts'), 'utf8');
    expect(entry).toMatch(/const \{ favourSmallHeap \} = await import\('\.\/v8-flags\.js'\)/);
    expect(entry).toMatch(/await main\(\{[^]*\bfavourSmallHeap,[^]*\}\);/);
  });

  it('no test mocks a module: fakes are handed in on the context (ctx.keychain, ctx.clientFor, ctx.api)', () => {
    const mocking: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && /\bvi\.(?:mock|doMock)\(/.test(readFileSync(path, 'utf8')))
          mocking.push(relative(root, path));
      }
    };
    walk(join(root, 'test'));
    expect(mocking).toEqual([]);
  });

  it('reads the envelopes only in the envelope and paging code', () => {
    // `{success, data}` compared and `pagination` read: API.md's envelopes (zod's `result.success` is not compared).
    expect(filesMatching(/\.pagination\b|\.success\s*===/).sort()).toEqual([
      'src/core/http/collection-integrity.ts',
      'src/core/http/envelope.ts',
      'src/core/http/paginate.ts',
    ]);
  });
});

describe('small files with one job', () => {
  it('no source file is over ~300 lines unless its header comment says why ("over 300 lines because …")', () => {
    const long: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8');
          const lines = text.split('\n').length;
          const header = /^(\s*\/\/.*\n)+/.exec(text)?.[0] ?? '';
          if (lines > 320 && !/over 300 lines because/i.test(header)) long.push(`${relative(root, path)} (${lines} lines)`);
        }
      }
    };
    walk(join(root, 'src'));
    expect(long).toEqual([]);
  });
});
