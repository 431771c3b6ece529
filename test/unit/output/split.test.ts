// Split output (output/split.ts) through writeRecords: part boundaries, complete parts per format,
// the manifest, and atomicity (nothing appears when the export fails).
import { createHash } from 'node:crypto';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OutputFormat } from '../../../src/core/global-options.js';
import { manifestPath, partPath, writeRecords, type SplitLimits, type View } from '../../../src/output/index.js';
import { InterruptedError } from '../../../src/core/errors.js';
import { fakeContext } from '../../helpers/fake-context.js';
import { waitFor } from '../../helpers/wait.js';
import { tempDir } from '../../helpers/temp.js';

const view: View = { label: 'properties', columns: ['id', 'value'] };
let dir: string;
beforeEach(() => {
  dir = tempDir('appraisal-split-');
});

async function* count(n: number, failAfter?: number, big?: number) {
  for (let i = 1; i <= n; i++) {
    if (failAfter !== undefined && i > failAfter) throw new Error(`page failed after ${failAfter}`);
    yield { id: `p${i}`, value: i === big ? 'x'.repeat(500) : i };
  }
}

/** A list's plan in parts: `--out props.FORMAT --split-rows/--split-size`. */
function split(format: OutputFormat, limits: Partial<SplitLimits>) {
  const outputFlags = { splitRows: limits.rows?.toString(), splitSize: limits.bytes?.toString() };
  const fake = fakeContext({ globals: { output: format, out: `props.${format}` }, outputFlags, cwd: dir });
  return { fake, target: { path: join(dir, `props.${format}`) } };
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

describe('split output', () => {
  it('ndjson parts of N rows concatenate to the whole export; the manifest lists each with its sha256', async () => {
    const { fake, target } = split('ndjson', { rows: 4 });
    const result = await writeRecords(fake.ctx, count(10), view);
    expect(result.count).toBe(10);
    expect(result.files!.map((f) => [f.file, f.records])).toEqual([
      ['props-0001.ndjson', 4],
      ['props-0002.ndjson', 4],
      ['props-0003.ndjson', 2],
    ]);
    const parts = await Promise.all(result.files!.map((f) => readFile(join(dir, f.file))));
    expect(Buffer.concat(parts).toString()).toBe([...Array(10)].map((_, i) => `{"id":"p${i + 1}","value":${i + 1}}\n`).join(''));
    const manifest = JSON.parse(await readFile(manifestPath(target.path), 'utf8'));
    expect(manifest.records).toBe(10);
    expect(manifest.parts).toEqual(result.files);
    for (const [i, part] of manifest.parts.entries()) expect(part.sha256).toBe(sha256(parts[i]!));
    expect(fake.stderr()).toBe(
      'Wrote 10 properties to props-0001.ndjson … props-0003.ndjson (3 parts, manifest props.ndjson.manifest.json)\n',
    );
    expect((await readdir(dir)).sort()).toEqual([
      'props-0001.ndjson',
      'props-0002.ndjson',
      'props-0003.ndjson',
      'props.ndjson.manifest.json',
    ]);
  });

  it('csv parts each repeat the header; json parts are each one array', async () => {
    const csv = split('csv', { rows: 3 });
    await writeRecords(csv.fake.ctx, count(7), view);
    for (const [n, rows] of [
      [1, 'p1,1\r\np2,2\r\np3,3\r\n'],
      [3, 'p7,7\r\n'],
    ] as const) {
      expect(await readFile(partPath(csv.target.path, n), 'utf8')).toBe(`id,value\r\n${rows}`);
    }
    const json = split('json', { rows: 3 });
    await writeRecords(json.fake.ctx, count(7), view);
    const arrays = await Promise.all(
      [1, 2, 3].map(async (n) => JSON.parse(await readFile(partPath(json.target.path, n), 'utf8')) as unknown[]),
    );
    expect(arrays.map((a) => a.length)).toEqual([3, 3, 1]);
    expect(arrays.flat()).toEqual([...Array(7)].map((_, i) => ({ id: `p${i + 1}`, value: i + 1 })));
  });

  it('--split-size never cuts a record or passes the size; a larger record goes alone', async () => {
    const { fake } = split('json', { bytes: 120 });
    const result = await writeRecords(fake.ctx, count(20, undefined, 9), view);
    const texts = await Promise.all(result.files!.map((f) => readFile(join(dir, f.file), 'utf8')));
    const records = texts.map((text) => JSON.parse(text) as Array<{ id: string }>);
    expect(records.flat().map((r) => r.id)).toEqual([...Array(20)].map((_, i) => `p${i + 1}`));
    for (const [i, text] of texts.entries()) {
      if (records[i]!.some((r) => r.id === 'p9')) expect(records[i]).toHaveLength(1);
      else expect(Buffer.byteLength(text)).toBeLessThanOrEqual(120);
      expect(result.files![i]!.bytes).toBe(Buffer.byteLength(text));
    }
  });

  it('no records still give one complete part', async () => {
    const { fake, target } = split('json', { rows: 5 });
    const result = await writeRecords(fake.ctx, count(0), view);
    expect(result.files).toHaveLength(1);
    expect(await readFile(partPath(target.path, 1), 'utf8')).toBe('[]\n');
  });

  it('a failure mid-way leaves nothing, and the parts of an earlier run as they were', async () => {
    const first = split('ndjson', { rows: 2 });
    await writeRecords(first.fake.ctx, count(5), view);
    const before = await readdir(dir);
    const again = split('ndjson', { rows: 2 });
    await expect(writeRecords(again.fake.ctx, count(10, 7), view)).rejects.toThrow('page failed after 7');
    expect((await readdir(dir)).sort()).toEqual(before.sort());
    expect(await readFile(partPath(first.target.path, 3), 'utf8')).toBe('{"id":"p5","value":5}\n');
  });

  it('a later run with fewer parts removes the earlier run’s extra parts, and nothing else', async () => {
    const first = split('ndjson', { rows: 2 });
    await writeRecords(first.fake.ctx, count(7), view);
    await writeFile(join(dir, 'props-notes.ndjson'), 'mine');
    const second = split('ndjson', { rows: 5 });
    await writeRecords(second.fake.ctx, count(7), view);
    expect((await readdir(dir)).sort()).toEqual([
      'props-0001.ndjson',
      'props-0002.ndjson',
      'props-notes.ndjson',
      'props.ndjson.manifest.json',
    ]);
  });

  it('Ctrl-C mid-way leaves nothing: no part, temp file, manifest or lock', async () => {
    const { fake } = split('csv', { rows: 3 });
    async function* endless() {
      for (let i = 1; ; i++) {
        yield { id: `p${i}`, value: i };
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const writing = writeRecords(fake.ctx, endless(), view);
    // Interrupted once some parts are complete (their temp files exist).
    await waitFor(async () => (await readdir(dir)).filter((name) => name.endsWith('.tmp')).length >= 3, 'three temp parts');
    fake.abort(new InterruptedError());
    await expect(writing).rejects.toBeInstanceOf(InterruptedError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('parts beside a 0600 --out file are 0600 from their first byte to the end, and so is the manifest (#37 §5)', async () => {
    const { fake, target } = split('ndjson', { rows: 2 });
    await writeFile(target.path, '');
    await chmod(target.path, 0o600);
    const modes = async () => {
      const names = (await readdir(dir)).filter((name) => name !== 'props.ndjson');
      return Promise.all(
        names.map(async (name) => `${name.endsWith('.tmp') ? 'temp' : name} ${((await stat(join(dir, name))).mode & 0o777).toString(8)}`),
      );
    };
    let whileWriting: string[] = [];
    async function* records() {
      yield* count(3);
      whileWriting = await modes();
    }
    await writeRecords(fake.ctx, records(), view);
    expect(whileWriting.sort()).toEqual(['.props.ndjson.lock 600', 'temp 600', 'temp 600']);
    expect((await modes()).sort()).toEqual(['props-0001.ndjson 600', 'props-0002.ndjson 600', 'props.ndjson.manifest.json 600']);
  });

  it('one run at a time per path: a live holder of the --out lock is exit 2, and nothing is written', async () => {
    await writeFile(join(dir, '.props.ndjson.lock'), `${process.pid}\n`);
    const { fake } = split('ndjson', { rows: 2 });
    await expect(writeRecords(fake.ctx, count(5), view)).rejects.toThrow(
      `--out props.ndjson is being written by another appraisal export (pid ${process.pid})`,
    );
    expect(await readdir(dir)).toEqual(['.props.ndjson.lock']);
  });
});
