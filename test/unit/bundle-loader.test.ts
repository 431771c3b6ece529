import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it("a vendor bundle's cache is used only with the source it was made from", () => {
    const sealed = sealCache(Buffer.from('cache bytes'), 'source A');
    expect(openCache(sealed, 'source A')?.toString()).toBe('cache bytes');
    expect(openCache(sealed, 'source B')).toBeUndefined();
    expect(openCache(sealed)).toBeUndefined();
  });

  it('loads the vendor bundles the bundle requires once each, with their cache, and not a cache left from another source', () => {
    const vendor = join(dir, 'vendor', 'group.cjs');
    mkdirSync(join(dir, 'vendor'));
    const source =
      "'use strict';\nexports.loads = (globalThis.__vendorLoads = (globalThis.__vendorLoads ?? 0) + 1);\nexports.add = (a, b) => a + b;\n";
    writeFileSync(vendor, source);
    const produced = loadBundle(pathToFileURL(vendor), { useCache: false, vendor: true });
    writeFileSync(`${vendor}.cache`, sealCache(produced.script.createCachedData(), source));
    expect(loadBundle(pathToFileURL(vendor), { vendor: true }).cacheRejected).toBe(false);
    writeFileSync(bundle, "'use strict';\nexports.both = () => [require('./vendor/group.cjs'), require('./vendor/group.cjs')];\n");
    const [first, second] = (
      loadBundle(pathToFileURL(bundle)).exports as { both: () => Array<{ loads: number; add: (a: number, b: number) => number }> }
    ).both();
    expect(first).toBe(second);
    expect(first!.add(2, 3)).toBe(5);
    // Another source of the same length: its cache is not taken (V8 alone would only compare lengths).
    writeFileSync(vendor, source.replace('a + b', 'a - b'));
    const changed = loadBundle(pathToFileURL(vendor), { vendor: true });
    expect(changed.cacheRejected).toBeUndefined();
    expect((changed.exports as { add: (a: number, b: number) => number }).add(2, 3)).toBe(-1);
  });
});
