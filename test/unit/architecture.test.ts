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

describe('the service model (src/model) is what the CLI and the mock share', () => {
  /** Every relative import of the .ts files under `dir`, resolved against the repository root. */
  function importsLeaving(dir: string): string[] {
    const out: string[] = [];
    const walk = (at: string): void => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        const path = join(at, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts'))
          for (const match of readFileSync(path, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
            const target = relative(root, join(at, match[1]!));
            if (!target.startsWith(relative(root, dir) + '/')) out.push(target);
          }
      }
    };
    walk(dir);
    return [...new Set(out)].sort();
  }

  it('the mock imports nothing of the CLI: outside src/mock only the model and openapi.json', () => {
    const outside = importsLeaving(join(root, 'src', 'mock'));
    expect(outside.filter((target) => !target.startsWith('src/model/') && target !== 'openapi.json')).toEqual([]);
    expect(outside.some((target) => target.startsWith('src/model/'))).toBe(true);
  });

  it('the model imports nothing outside src/model', () => {
    expect(importsLeaving(join(root, 'src', 'model'))).toEqual([]);
  });
});

describe('one place for each concern', () => {
  it('registers secrets with the redactor in one function (core/credentials/credential.ts)', () => {
    expect(cliSources().length).toBeGreaterThan(150);
    expect(filesMatching(/redactor\.register\(/)).toEqual(['src/core/credentials/credential.ts']);
  });

  it("words a failed file operation's reason in one place (core/file-error-words.ts): no message shows a bare error code", () => {
    expect(filesMatching(/ENOSPC/)).toEqual(['src/core/file-error-words.ts']);
    expect(filesMatching(/\.code \?\? \(error as Error\)\.message|code \?\? 'unknown error'/)).toEqual([]);
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

  it('mcp uses keys through its one public entry (commands/keys/public.ts)', () => {
    const inner = cliSources()
      .filter(({ file }) => file.startsWith('src/commands/mcp/'))
      .flatMap(({ file, text }) => [...text.matchAll(/from '(\.\.\/keys\/[^']+)'/g)].map((match) => `${file}: ${match[1]}`))
      .filter((entry) => !entry.endsWith(': ../keys/public.js'));
    expect(inner).toEqual([]);
  });

  it("places verbs one way: a noun's index.ts lists its verbs, each declared in its own file or by a shared builder", () => {
    const declaring = cliSources()
      .filter(({ file }) => /^src\/commands\/[^/]+\/index\.ts$/.test(file))
      .filter(({ text }) => /\bdefineVerb\s*[<(]/.test(text))
      .map(({ file }) => file);
    expect(declaring).toEqual([]);
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

describe('no hidden module state', () => {
  /**
   * A module-level `let`, WeakMap/WeakSet, or empty Map/Set holds state beside the objects it is
   * about: a fact of a run belongs on its context (or the object it describes), or two runs in one
   * process (the tests, MCP's nested commands) see each other's. The few left are caches of what
   * cannot differ between runs, or facts of the process itself, each with its reason.
   */
  const ALLOWED: Record<string, string> = {
    'src/core/description/loaded.ts bundledContract': 'the bundled openapi.json parsed once: the same file for every run',
    'src/core/description/document.ts templateCache': 'a path template as a RegExp: a pure function of the string',
    'src/core/credentials/keychain.ts keyringModule': 'the native addon imported once per process',
    'src/core/owned-file.ts umaskCache': "the process's umask: a fact of the process, not of a run",
    'src/core/temp-files.ts live': 'temporary files the process removes when it exits, whichever run made them',
    'src/core/child-command.ts running': 'child processes the process signals when it exits, whichever run started them',
    'src/core/child-command.ts exitHookInstalled': 'the one exit hook of the process for those children',
  };
  const STATE =
    /^(?:export )?(?:(?:let|var) (\w+)|const (\w+)(?:: [^=]+)? = new (?:WeakMap|WeakSet|WeakRef|(?:Map|Set)(?:<[^>]*>)?\(\s*\)))/gm;

  function moduleState(): string[] {
    const found: string[] = [];
    for (const { file, text } of cliSources()) {
      if (!['src/core/', 'src/commands/', 'src/output/'].some((dir) => file.startsWith(dir)) && file !== 'src/main.ts') continue;
      for (const match of text.matchAll(STATE)) found.push(`${file} ${match[1] ?? match[2]}`);
    }
    return found.sort();
  }

  it('keeps no run state at module level in src/core, src/commands, src/output and main.ts (the allowed few say why)', () => {
    const found = moduleState();
    expect(found.filter((entry) => !(entry in ALLOWED))).toEqual([]);
    // The list stays honest: an allowed entry that no longer exists is taken off it.
    expect(Object.keys(ALLOWED).filter((entry) => !found.includes(entry))).toEqual([]);
  });

  it('notices a module-level let, WeakMap or empty Map', () => {
    const sample =
      'let source: X | undefined;\nconst seen = new WeakMap<A, B>();\nconst byName = new Map<string, number>();\nconst TABLE = new Set([1, 2]);\n';
    expect([...sample.matchAll(STATE)].map((match) => match[1] ?? match[2])).toEqual(['source', 'seen', 'byName']);
  });
});
