import { AssertionError } from 'node:assert';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DEFERRED_BUILTINS, deferredModule, deferringRequire } from '../../src/boot/deferred-builtins.js';

const require = createRequire(import.meta.url);

/** A stand-in for `real` and how many times it loaded it. */
function counted<T>(real: T, options?: { callable?: boolean }) {
  const state = { loads: 0 };
  const standIn = deferredModule(() => {
    state.loads++;
    return real;
  }, options) as T;
  return { standIn, state };
}

describe('deferred built-ins: a stand-in loads the real module on first use, then behaves as it', () => {
  it('loads nothing until a property is read, then once', () => {
    const { standIn, state } = counted(require('node:os') as typeof import('node:os'));
    expect(state.loads).toBe(0);
    // esbuild asks whether a module is an ES module namespace: answered without loading.
    expect((standIn as unknown as { __esModule?: unknown }).__esModule).toBeUndefined();
    expect(state.loads).toBe(0);
    expect(standIn.EOL).toBe('\n');
    expect(standIn.homedir()).toBe(require('node:os').homedir());
    expect(state.loads).toBe(1);
  });

  it('forwards `in`, key listing, descriptors and the prototype', () => {
    const real = require('node:fs/promises') as typeof import('node:fs/promises');
    const { standIn } = counted(real);
    expect('open' in standIn).toBe(true);
    expect('no-such-export' in standIn).toBe(false);
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(real).sort());
    expect(Object.getOwnPropertyDescriptor(standIn, 'open')?.value).toBe(real.open);
    expect(Object.getPrototypeOf(standIn)).toBe(Object.getPrototypeOf(real));
    // What esbuild's __toESM does for a default or namespace import: a copy with every export.
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(standIn)) as typeof real;
    expect(copy.readFile).toBe(real.readFile);
  });

  it('gives the real classes, so instanceof and construction work', async () => {
    const { standIn } = counted(require('node:http') as typeof import('node:http'));
    const { IncomingMessage, STATUS_CODES } = standIn;
    expect(IncomingMessage).toBe(require('node:http').IncomingMessage);
    expect(STATUS_CODES[404]).toBe('Not Found');
  });

  it('node:assert: a passing assertion does not load it; a failing one throws its AssertionError', () => {
    const { standIn, state } = counted(require('node:assert') as typeof import('node:assert'), { callable: true });
    const assert: typeof import('node:assert') = standIn;
    assert(true);
    assert(1, 'a message');
    expect(state.loads).toBe(0);
    expect(() => assert(false, 'it failed')).toThrow(AssertionError);
    expect(() => assert(0)).toThrow(AssertionError);
    expect(state.loads).toBe(1);
    expect(() => assert.strictEqual(1, 2)).toThrow(AssertionError);
    expect(() => (assert as unknown as () => void)()).toThrow(AssertionError);
  });

  it('a non-callable module stays not callable', () => {
    const { standIn } = counted(require('node:os'));
    expect(() => (standIn as () => void)()).toThrow(TypeError);
  });
});

describe('deferringRequire', () => {
  const deferring = deferringRequire(require);

  it('defers exactly the listed built-ins, with or without the node: prefix, one stand-in each', () => {
    expect(Object.keys(DEFERRED_BUILTINS)).toContain('node:child_process');
    const standIn = deferring('node:child_process') as typeof import('node:child_process');
    expect(standIn).not.toBe(require('node:child_process'));
    expect(deferring('child_process')).toBe(standIn);
    expect(standIn.spawnSync).toBe(require('node:child_process').spawnSync);
  });

  it('hands every other id to require as it is', () => {
    expect(deferring('node:path')).toBe(require('node:path'));
    expect(deferring('node:tls')).toBe(require('node:tls'));
    expect(() => deferring('constructor')).toThrow(/Cannot find module/);
    expect(deferring.resolve('node:path')).toBe('node:path');
  });
});
