// The sync's watermark hint (src/commands/sync/watermark-hint.ts): kept per origin, database, schema
// and family in the config directory's cache, holding the watermark alone (never a password of the
// target's URL), and read back only when it is a small plain file of this user's that parses.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHint, writeHint, type HintKey } from '../../../../src/commands/sync/watermark-hint.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { tempDir } from '../../../helpers/temp.js';

const ORIGIN = 'https://appraisal.example';
const duck = (path: string): HintKey['target'] => ({ kind: 'duckdb', path, shown: path });
const pg = (url: string): HintKey['target'] => ({ kind: 'postgres', url, shown: 'postgres at db:5432', passwordInUrl: false });

function setUp() {
  const configDir = tempDir('appraisal-hint-');
  const { ctx, stderr } = fakeContext({ env: { APPRAISAL_CONFIG_DIR: configDir } });
  const cache = join(configDir, 'cache');
  const hints = () => readdirSync(cache).filter((name) => name.startsWith('sync-'));
  return { ctx, stderr, cache, hints };
}

describe('the watermark hint', () => {
  it('keeps the watermark alone, one file per origin, database, schema and family', async () => {
    const { ctx, cache, hints } = setUp();
    const key: HintKey = { origin: ORIGIN, target: duck('/data/ops.duckdb'), schema: undefined, family: 'props' };
    expect(await readHint(ctx, key)).toBeUndefined();
    await writeHint(ctx, key, 1_790_000_000_123);
    expect(await readHint(ctx, key)).toBe(1_790_000_000_123);
    const [file] = hints();
    expect(readFileSync(join(cache, file!), 'utf8')).toBe('{"watermark":1790000000123}');

    for (const other of [
      { ...key, origin: 'https://staging.appraisal.example' },
      { ...key, target: duck('/data/other.duckdb') },
      { ...key, schema: 'acme' },
      { ...key, family: 'clients' },
    ]) {
      expect(await readHint(ctx, other)).toBeUndefined();
    }
    await writeHint(ctx, { ...key, family: 'clients' }, 5);
    expect(hints()).toHaveLength(2);
    expect(await readHint(ctx, key)).toBe(1_790_000_000_123);
  });

  it('never keys on a password the URL holds, and never writes it', async () => {
    const { ctx, cache, hints } = setUp();
    const key = (url: string): HintKey => ({ origin: ORIGIN, target: pg(url), schema: 'acme', family: 'props' });
    await writeHint(ctx, key('postgres://sync:hunter2@db.internal:5432/ops?sslmode=require&password=hunter3'), 42);
    // The same database with another password, or none: the same hint.
    expect(await readHint(ctx, key('postgres://sync:other@db.internal:5432/ops?sslmode=require'))).toBe(42);
    expect(await readHint(ctx, key('postgres://sync@db.internal:5432/ops?sslmode=require'))).toBe(42);
    // Another database, user or host: none.
    expect(await readHint(ctx, key('postgres://sync@db.internal:5432/reports?sslmode=require'))).toBeUndefined();
    expect(await readHint(ctx, key('postgres://admin@db.internal:5432/ops?sslmode=require'))).toBeUndefined();
    const [file] = hints();
    expect(hints()).toHaveLength(1);
    expect(file).toMatch(/^sync-[0-9a-f]{32}\.json$/);
    expect(readFileSync(join(cache, file!), 'utf8')).not.toMatch(/hunter|sync|db\.internal/);
  });

  it('reads no hint from a file that is damaged, too long, a link, or not a watermark', async () => {
    const { ctx, cache, hints } = setUp();
    const key: HintKey = { origin: ORIGIN, target: duck('/data/ops.duckdb'), schema: undefined, family: 'props' };
    await writeHint(ctx, key, 1000);
    const file = join(cache, hints()[0]!);
    const elsewhere = join(tempDir('appraisal-hint-elsewhere-'), 'hint.json');
    for (const text of [
      '{"watermark":',
      '{"watermark":"1000"}',
      '{"watermark":1.5e400}',
      '[]',
      `{"watermark":1000,"pad":"${'x'.repeat(300)}"}`,
    ]) {
      writeFileSync(file, text);
      expect(await readHint(ctx, key), text).toBeUndefined();
    }
    writeFileSync(elsewhere, '{"watermark":1000}');
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(await readHint(ctx, key)).toBeUndefined();
    // A hint that cannot be kept (the cache is a file) is no failure of the run: it is said under -v only.
    const blocked = setUp();
    mkdirSync(join(blocked.cache, '..'), { recursive: true });
    writeFileSync(blocked.cache, 'not a directory');
    await writeHint(blocked.ctx, key, 7);
    expect(await readHint(blocked.ctx, key)).toBeUndefined();
    expect(blocked.stderr()).toBe('');
  });

  it('removes the hints no run has written for 30 days when it keeps one, and nothing else', async () => {
    const { ctx, cache, hints } = setUp();
    const key = (family: string): HintKey => ({ origin: ORIGIN, target: duck(`/tmp/run-${family}.duckdb`), schema: undefined, family });
    await writeHint(ctx, key('old'), 1);
    await writeHint(ctx, key('recent'), 2);
    const byAge = (days: number) => (Date.now() - days * 86_400_000) / 1000;
    const files = hints();
    // Which file is which: the one read back as 1 is the old one.
    const oldFile = files.find((name) => readFileSync(join(cache, name), 'utf8') === '{"watermark":1}')!;
    const recentFile = files.find((name) => name !== oldFile)!;
    utimesSync(join(cache, oldFile), byAge(31), byAge(31));
    utimesSync(join(cache, recentFile), byAge(29), byAge(29));
    const other = join(cache, 'sync-notes.txt');
    writeFileSync(other, 'not a hint');
    utimesSync(other, byAge(400), byAge(400));
    await writeHint(ctx, key('new'), 3);
    expect(existsSync(join(cache, oldFile))).toBe(false);
    expect(await readHint(ctx, key('old'))).toBeUndefined();
    expect(await readHint(ctx, key('recent'))).toBe(2);
    expect(await readHint(ctx, key('new'))).toBe(3);
    expect(existsSync(other)).toBe(true);
  });
});
