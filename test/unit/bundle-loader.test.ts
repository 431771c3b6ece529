import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBundle, openCache, sealCache } from '../../src/boot/bundle-loader.js';

describe('bundle loader: the code cache is used only when it is intact', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bundle-loader-'));
    bundle = join(dir, 'main-TEST.cjs');
    writeFileSync(bundle, "'use strict';\nexports.answer = function answer(x) { return x * 2 + require('node:path').sep.length; };\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const writeCache = (): Buffer => {
    const produced = loadBundle(pathToFileURL(bundle), { useCache: false });
    const sealed = sealCache(produced.script.createCachedData());
    writeFileSync(`${bundle}.cache`, sealed);
    return sealed;
  };
  const answer = (loaded: ReturnType<typeof loadBundle>): number => (loaded.exports as { answer: (x: number) => number }).answer(20);

  it('loads the bundle with its cache (V8 accepts it)', () => {
    writeCache();
    const loaded = loadBundle(pathToFileURL(bundle));
    expect(loaded.cacheRejected).toBe(false);
    expect(answer(loaded)).toBe(41);
  });

  it('ignores a missing, damaged, truncated or unsealed cache and compiles the source', () => {
    const sealed = writeCache();
    const damaged = Buffer.from(sealed);
    damaged[damaged.length >> 1]! ^= 0xff;
    const cases: Array<[string, Buffer | undefined]> = [
      ['missing', undefined],
      ['one byte flipped', damaged],
      ['truncated', sealed.subarray(0, sealed.length - 100)],
      ['V8 data without the digest', sealed.subarray(32)],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [, content] of cases) {
      rmSync(`${bundle}.cache`, { force: true });
      if (content) writeFileSync(`${bundle}.cache`, content);
      const loaded = loadBundle(pathToFileURL(bundle));
      expect(loaded.cacheRejected).toBeUndefined();
      expect(answer(loaded)).toBe(41);
    }
    expect(openCache(readFileSync(`${bundle}.cache`))).toBeUndefined();
  });

  it('openCache gives back exactly what sealCache sealed', () => {
    const data = Buffer.from('some V8 code cache bytes');
    expect(openCache(sealCache(data))?.equals(data)).toBe(true);
  });
});
