import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../../src/core/global-options.js';
import { InterruptedError, UsageError } from '../../../src/core/errors.js';
import { writeRecord, writeRecords, type View } from '../../../src/output/index.js';
import { fakeContext } from '../../helpers/fake-context.js';
import { waitFor } from '../../helpers/wait.js';
import { tempDir } from '../../helpers/temp.js';

const view: View = { label: 'properties', singular: 'property', columns: ['id', 'value'] };

let dir: string;
beforeEach(async () => {
  dir = tempDir('appraisal-out-');
});

async function* count(n: number, failAfter?: number) {
  for (let i = 1; i <= n; i++) {
    if (failAfter !== undefined && i > failAfter) throw new Error(`page failed after ${failAfter}`);
    yield { id: `p${i}`, value: i };
  }
}

function context(globals: Partial<GlobalOptions>) {
  return fakeContext({ globals, cwd: dir });
}

describe('--out', () => {
  it('writes the file atomically and leaves no temp file', async () => {
    const fake = context({ output: 'ndjson', out: 'props.ndjson' });
    expect(await writeRecords(fake.ctx, count(1234), view)).toEqual({ count: 1234 });
    const text = await readFile(join(dir, 'props.ndjson'), 'utf8');
    expect(text.split('\n')).toHaveLength(1235);
    expect(text.startsWith('{"id":"p1","value":1}\n')).toBe(true);
    expect(await readdir(dir)).toEqual(['props.ndjson']);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe('Wrote 1,234 properties to props.ndjson\n');
  });

  it('chooses the format from the extension when -o was not given', async () => {
    const csv = context({ out: 'props.csv' });
    await writeRecords(csv.ctx, count(2), view);
    expect(await readFile(join(dir, 'props.csv'), 'utf8')).toBe('id,value\r\np1,1\r\np2,2\r\n');
    // An extension that names no format is a usage error, not a silent JSON file.
    const other = context({ out: 'props.txt' });
    await expect(writeRecords(other.ctx, count(1), view)).rejects.toThrow(/--out props\.txt: unknown extension \.txt/);
    expect(existsSync(join(dir, 'props.txt'))).toBe(false);
    const explicit = context({ output: 'ndjson', out: 'x.json' });
    await writeRecords(explicit.ctx, count(1), view);
    expect(await readFile(join(dir, 'x.json'), 'utf8')).toBe('{"id":"p1","value":1}\n');
  });

  it('replaces an existing file only on success, keeping its mode', async () => {
    const path = join(dir, 'props.json');
    await writeFile(path, 'old');
    await chmod(path, 0o600);
    const failing = context({ out: 'props.json' });
    await expect(writeRecords(failing.ctx, count(10, 3), view)).rejects.toThrow('page failed after 3');
    expect(await readFile(path, 'utf8')).toBe('old');
    const ok = context({ out: 'props.json' });
    await writeRecords(ok.ctx, count(2), view);
    expect(JSON.parse(await readFile(path, 'utf8'))).toHaveLength(2);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['props.json']);
  });

  it('leaves nothing behind when the iterator fails mid-way', async () => {
    const fake = context({ output: 'ndjson', out: 'props.ndjson' });
    await expect(writeRecords(fake.ctx, count(10, 3), view)).rejects.toThrow('page failed after 3');
    expect(await readdir(dir)).toEqual([]);
    expect(fake.stderr()).toBe('');
  });

  it('leaves nothing behind when interrupted', async () => {
    const fake = context({ out: 'props.json' });
    async function* slow() {
      for (let i = 1; ; i++) {
        yield { id: `p${i}` };
        await sleep(5);
      }
    }
    const writing = writeRecords(fake.ctx, slow(), view);
    // Interrupted mid-write: once its temp file exists.
    await waitFor(async () => (await readdir(dir)).some((name) => name.endsWith('.tmp')), 'the temp file of the export');
    fake.abort(new InterruptedError());
    await expect(writing).rejects.toBeInstanceOf(InterruptedError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a missing directory before consuming any record', async () => {
    const fake = context({ out: 'nope/props.json' });
    let pulled = false;
    async function* records() {
      pulled = true;
      yield { id: 'p1' };
    }
    const error = await writeRecords(fake.ctx, records(), view).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^--out nope\/props\.json: directory .*nope does not exist$/);
    expect(pulled).toBe(false);
    await expect(fake.ctx.output.ready()).rejects.toThrow(UsageError);
  });

  it('refuses a directory, and a path under a file', async () => {
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'file'), '');
    await expect(context({ out: 'sub' }).ctx.output.ready()).rejects.toThrow('--out sub is a directory; give a file path');
    await expect(context({ out: 'sub/' }).ctx.output.ready()).rejects.toThrow(UsageError);
    await expect(context({ out: 'file/x.json' }).ctx.output.ready()).rejects.toThrow(UsageError);
    await expect(context({ out: '' }).ctx.output.ready()).rejects.toThrow(UsageError);
    await expect(context({ out: 'fine.json' }).ctx.output.ready()).resolves.toBeUndefined();
    await expect(context({}).ctx.output.ready()).resolves.toBeUndefined();
  });

  const asRoot = process.getuid?.() === 0;
  it.skipIf(asRoot)(
    `maps a read-only directory to a UsageError${asRoot ? ' [skipped: running as root, which writes to read-only directories]' : ''}`,
    async () => {
      const locked = join(dir, 'locked');
      await mkdir(locked);
      await chmod(locked, 0o500);
      try {
        const fake = context({ out: 'locked/props.json' });
        await expect(writeRecords(fake.ctx, count(1), view)).rejects.toThrow(/permission denied/);
      } finally {
        await chmod(locked, 0o700);
      }
    },
  );

  it('refuses a symlink at --out (exit 2), leaving the link and its target as they were', async () => {
    await writeFile(join(dir, 'target.json'), 'old');
    await symlink(join(dir, 'target.json'), join(dir, 'link.json'));
    await expect(writeRecords(context({ out: 'link.json' }).ctx, count(1), view)).rejects.toThrow(
      /^--out link\.json is a symbolic link to .*target\.json; refusing to write through it$/,
    );
    expect(await readFile(join(dir, 'target.json'), 'utf8')).toBe('old');
    await symlink(join(dir, 'nowhere.json'), join(dir, 'dangling.json'));
    await expect(writeRecords(context({ out: 'dangling.json' }).ctx, count(1), view)).rejects.toThrow(/dangling/);
    expect((await readdir(dir)).sort()).toEqual(['dangling.json', 'link.json', 'target.json']);
  });

  it('writes a single record too, with a notice', async () => {
    const fake = context({ out: 'one.json' });
    await writeRecord(fake.ctx, { id: 'p1' }, view);
    expect(await readFile(join(dir, 'one.json'), 'utf8')).toBe('{\n  "id": "p1"\n}\n');
    expect(fake.stderr()).toBe('Wrote 1 property to one.json\n');
  });

  it('treats --out - as stdout', async () => {
    const fake = context({ output: 'ndjson', out: '-' });
    await writeRecords(fake.ctx, count(1), view);
    expect(fake.stdout()).toBe('{"id":"p1","value":1}\n');
    expect(await readdir(dir)).toEqual([]);
    expect(fake.stderr()).toBe('');
  });

  it('is silent with --quiet', async () => {
    const fake = context({ out: 'q.json', quiet: true });
    await writeRecords(fake.ctx, count(1), view);
    expect(fake.stderr()).toBe('');
  });
});
