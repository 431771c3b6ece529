// The build edits two undici files so that node:http is not read while the bundle loads
// (scripts/undici-defer-http.mjs). These tests fail when an undici upgrade changes those texts,
// instead of the build quietly losing the ~2 ms.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { applyEdits, EDITS } from '../../scripts/undici-defer-http.mjs';

const undiciRoot = dirname(dirname(dirname(createRequire(import.meta.url).resolve('undici/lib/dispatcher/agent.js'))));
const edits = EDITS as Record<string, Array<[string, string]>>;
const edit = applyEdits as (source: string, edits: Array<[string, string]>) => string | undefined;

describe("the build's edits of undici apply to the installed version", () => {
  it('finds every text it replaces exactly once, and leaves no top-level read of node:http', () => {
    expect(Object.keys(edits)).toHaveLength(2);
    for (const [file, replacements] of Object.entries(edits)) {
      const source = readFileSync(join(undiciRoot, file), 'utf8');
      const edited = edit(source, replacements);
      expect(edited, file).toBeDefined();
      expect(edited).not.toBe(source);
      expect(edited).not.toMatch(/const \{[^}]*\} = require\('node:http'\)/);
    }
    const util = edit(readFileSync(join(undiciRoot, 'lib', 'core', 'util.js'), 'utf8'), edits[join('lib', 'core', 'util.js')]!)!;
    expect(util).toContain('constructor === http.IncomingMessage)');
    expect(util).not.toMatch(/[^.]IncomingMessage\b(?!\))/);
  });

  it('leaves a file it does not recognise alone', () => {
    expect(edit('const x = 1\n', edits[join('lib', 'core', 'util.js')]!)).toBeUndefined();
    // A text found twice is not edited either: which one was meant is unknown.
    const [[from]] = edits[join('lib', 'core', 'util.js')]! as [[string, string]];
    expect(edit(`${from}\n${from}\n`, edits[join('lib', 'core', 'util.js')]!)).toBeUndefined();
  });
});
