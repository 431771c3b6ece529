// The one buffered file writer: exact byte offsets before anything reaches the disk (resumable
// checkpoints and split parts depend on them), its sha256, and failures named for the user.
import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalEnvironmentError } from '../../../src/core/errors.js';
import { BufferedFileWriter, FLUSH_BYTES, writeFailure } from '../../../src/output/buffered-writer.js';
import { tempDir } from '../../helpers/temp.js';

describe('BufferedFileWriter', () => {
  it('counts UTF-8 bytes exactly while buffering, flushes past 64 KiB, and hashes what it wrote', async () => {
    const path = join(tempDir('appraisal-writer-'), 'out.ndjson');
    const writer = new BufferedFileWriter(await open(path, 'w'), 'out.ndjson', { hash: true });
    const line = '{"city":"Zürich","note":"€ – ✓"}\n';
    let expected = 0;
    for (let i = 0; i < 5000; i++) {
      await writer.write(line);
      expected += Buffer.byteLength(line);
      expect(writer.bytes).toBe(expected);
    }
    // Past FLUSH_BYTES some of it is on disk already, before complete().
    expect(expected).toBeGreaterThan(FLUSH_BYTES);
    expect((await readFile(path)).length).toBeGreaterThan(0);
    await writer.complete();
    const data = await readFile(path);
    expect(data.length).toBe(expected);
    expect(writer.sha256()).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('starts counting at a resumed position', async () => {
    const path = join(tempDir('appraisal-writer-'), 'partial');
    const writer = new BufferedFileWriter(await open(path, 'w'), 'p', { position: 100 });
    await writer.write('ab');
    expect(writer.bytes).toBe(102);
    await writer.close();
  });

  it('a write that fails while the next 64 KiB gather is thrown by the next write or flush, named for the user', async () => {
    const path = join(tempDir('appraisal-writer-'), 'out.ndjson');
    const real = await open(path, 'w');
    let writes = 0;
    // The second write of the file system fails as a full disk does.
    const failing = new Proxy(real, {
      get(target, name, receiver) {
        if (name !== 'write') return Reflect.get(target, name, receiver);
        return async (...args: Parameters<typeof real.write>) => {
          writes++;
          if (writes === 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          return (target.write as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const writer = new BufferedFileWriter(failing, 'out.ndjson');
    const chunk = 'x'.repeat(FLUSH_BYTES);
    await writer.write(chunk); // the first write starts
    await writer.write(chunk); // waits for the first, starts the second (which fails)
    const error = await writer.flush().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LocalEnvironmentError);
    expect((error as Error).message).toBe('could not write out.ndjson: no space left on device');
    // Still failing later (nothing after a lost write may be claimed as written), and close is quiet.
    await expect(writer.sync()).rejects.toThrow('no space left on device');
    await writer.close();
    expect(writes).toBe(2);
  });

  it('a flush covers every byte handed in before it, also when a write started meanwhile takes them (a checkpoint while records flow)', async () => {
    const path = join(tempDir('appraisal-writer-'), 'out.ndjson');
    const real = await open(path, 'w');
    // Every write of the file system takes a few turns of the event loop, as a real disk's does.
    const slow = new Proxy(real, {
      get(target, name, receiver) {
        if (name !== 'write') return Reflect.get(target, name, receiver);
        return async (...args: Parameters<typeof real.write>) => {
          for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
          return (target.write as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const writer = new BufferedFileWriter(slow, 'out.ndjson');
    await writer.write('a'.repeat(FLUSH_BYTES)); // in flight
    const writing = writer.write('b'.repeat(FLUSH_BYTES)); // waits for the first, its bytes handed in
    const flushed = writer.flush().then(async () => (await readFile(path)).length);
    // Every byte handed in before the flush is in the file when it resolves.
    expect(await flushed).toBe(2 * FLUSH_BYTES);
    await writing;
    await writer.complete();
    expect((await readFile(path, 'utf8')).replace(/a+b+/, '')).toBe('');
  });

  it('names a full disk and an I/O error for the user, and passes its own errors through', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(writeFailure('props.csv', full).message).toBe('could not write props.csv: no space left on device');
    expect(writeFailure('props.csv', Object.assign(new Error('x'), { code: 'EIO' })).message).toBe('could not write props.csv: I/O error');
    const own = new LocalEnvironmentError('could not write a: quota');
    expect(writeFailure('b', own)).toBe(own);
  });
});
