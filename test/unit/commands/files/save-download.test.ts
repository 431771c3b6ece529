import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ContractError, InterruptedError, LocalEnvironmentError, NetworkError } from '../../../../src/core/errors.js';
import { partPathFor, receiveToFile, receiveToStream, type ByteBody } from '../../../../src/commands/files/transfer/save-download.js';
import { ownProcess } from '../../../../src/core/process-facts.js';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { tempDir as makeTempDir } from '../../../helpers/temp.js';

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function body(chunks: Buffer[], failAfter?: Error): ByteBody {
  return Readable.from(
    (async function* () {
      for (const chunk of chunks) yield chunk;
      if (failAfter) throw failAfter;
    })(),
  ) as unknown as ByteBody;
}

/** A body that sends one chunk and then never ends (until destroyed). */
function stalledBody(first: Buffer): ByteBody {
  const stream = new Readable({ read() {} });
  stream.push(first);
  return stream as unknown as ByteBody;
}

function tempDir(): string {
  return makeTempDir('appraisal-dl-');
}

const DATA = Buffer.from('0123456789'.repeat(1000));
const CHUNKS = [DATA.subarray(0, 4000), DATA.subarray(4000)];
const signal = () => new AbortController().signal;

describe('receiveToFile', () => {
  it('writes the verified file and leaves no temp file', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.pdf');
    const progress: number[] = [];
    const content = await receiveToFile(
      body(CHUNKS),
      { path: target, shown: 'report.pdf' },
      {
        expected: { size: DATA.length, sha256: sha(DATA) },
        what: 'file x',
        signal: signal(),
        onProgress: (n) => progress.push(n),
      },
    );
    expect(content).toEqual({ size: DATA.length, sha256: sha(DATA) });
    expect(readFileSync(target)).toEqual(DATA);
    expect(readdirSync(dir)).toEqual(['report.pdf']);
    expect(progress).toEqual([4000, DATA.length]);
  });

  it.each([
    ['size', { size: DATA.length + 1 }, /10000 bytes instead of 10001/],
    ['sha256', { sha256: 'a'.repeat(64) }, /sha256 [0-9a-f]{64} instead of a{64}/],
  ])('refuses a %s mismatch: exit-9 error, no file, existing file untouched', async (_, expected, message) => {
    const dir = tempDir();
    const target = join(dir, 'report.pdf');
    writeFileSync(target, 'old contents');
    const error = await receiveToFile(
      body(CHUNKS),
      { path: target, shown: 'report.pdf' },
      { expected, what: 'file x', signal: signal() },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toMatch(message);
    expect(readFileSync(target, 'utf8')).toBe('old contents');
    expect(readdirSync(dir)).toEqual(['report.pdf']);
  });

  it('maps a body that breaks off to a network error and removes the temp file', async () => {
    const dir = tempDir();
    const target = join(dir, 'report.pdf');
    const error = await receiveToFile(
      body(CHUNKS, new Error('other side closed')),
      { path: target, shown: 'report.pdf' },
      {
        expected: {},
        what: 'file x',
        signal: signal(),
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('the download of file x broke off after 10000 bytes: other side closed');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops on abort even while the body is stalled, leaving nothing behind', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const pending = receiveToFile(
      stalledBody(Buffer.from('abc')),
      { path: join(dir, 'x.bin'), shown: 'x.bin' },
      {
        expected: {},
        what: 'file x',
        signal: controller.signal,
        onProgress: () => controller.abort(),
      },
    );
    await expect(pending).rejects.toBeInstanceOf(InterruptedError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes the temp files of downloads to the same target whose process is gone (kill -9), never a live one's", async () => {
    const dir = tempDir();
    const target = join(dir, 'big-k.bin');
    // A pid that ran and has ended: the one a process just started and waited for had.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const host = ownProcess().host;
    const leftovers = {
      dead: partPathFor(target, { pid: dead, host }),
      // The test runner's parent runs: its download may still be writing.
      live: partPathFor(target, { pid: process.ppid, host }),
      otherHost: partPathFor(target, { pid: dead, host: `not-${host}` }),
      otherTarget: partPathFor(join(dir, 'other.bin'), { pid: dead, host }),
      // Named before the pid was in the name: whose it is cannot be told.
      unnamed: join(dir, '.big-k.bin.0123456789ab.part'),
    };
    for (const path of Object.values(leftovers)) writeFileSync(path, 'half a file', { mode: 0o600 });
    await receiveToFile(
      body(CHUNKS),
      { path: target, shown: 'big-k.bin' },
      { expected: { size: DATA.length, sha256: sha(DATA) }, what: 'file x', signal: signal() },
    );
    expect(readFileSync(target)).toEqual(DATA);
    expect(readdirSync(dir).sort()).toEqual(
      [
        'big-k.bin',
        ...[leftovers.live, leftovers.otherHost, leftovers.otherTarget, leftovers.unnamed].map((path) => basename(path)),
      ].sort(),
    );
  });

  it('the .part file is never wider than the 0600 file it replaces, nor than 0600 for a new one (#37 §5)', async () => {
    const dir = tempDir();
    const partModes = () =>
      readdirSync(dir)
        .filter((name) => name.endsWith('.part'))
        .map((name) => (statSync(join(dir, name)).mode & 0o777).toString(8));
    for (const [name, existing] of [
      ['secret.bin', 0o600],
      ['new.bin', undefined],
    ] as const) {
      const target = join(dir, name);
      if (existing !== undefined) {
        writeFileSync(target, 'old');
        chmodSync(target, existing);
      }
      const controller = new AbortController();
      let seen: string[] = [];
      const pending = receiveToFile(
        stalledBody(Buffer.from('abc')),
        { path: target, shown: name, mode: existing },
        {
          expected: {},
          what: 'file x',
          signal: controller.signal,
          onProgress: () => {
            seen = partModes();
            controller.abort();
          },
        },
      );
      await expect(pending).rejects.toBeInstanceOf(InterruptedError);
      expect(seen).toEqual(['600']);
    }
  });

  it('says so when the directory cannot take the temp file', async () => {
    const target = join(tempDir(), 'missing-dir', 'x.bin');
    await expect(
      receiveToFile(body(CHUNKS), { path: target, shown: 'missing-dir/x.bin' }, { expected: {}, what: 'file x', signal: signal() }),
    ).rejects.toBeInstanceOf(LocalEnvironmentError);
    expect(existsSync(target)).toBe(false);
  });
});

class SlowWritable extends Writable {
  received: Buffer[] = [];
  constructor() {
    super({ highWaterMark: 16 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.received.push(chunk);
    setTimeout(callback, 1);
  }
}

describe('receiveToStream', () => {
  it('waits for drain and passes every byte through', async () => {
    const out = new SlowWritable();
    const chunks = Array.from({ length: 20 }, (_, i) => Buffer.alloc(100, i));
    const all = Buffer.concat(chunks);
    const content = await receiveToStream(body(chunks), out, {
      expected: { size: all.length, sha256: sha(all) },
      what: 'file x',
      signal: signal(),
    });
    expect(content.size).toBe(2000);
    await new Promise((resolve) => out.end(resolve));
    expect(Buffer.concat(out.received)).toEqual(all);
  });

  it('reports a mismatch after writing, saying the bytes already went out', async () => {
    const out = new SlowWritable();
    await expect(
      receiveToStream(body(CHUNKS), out, { expected: { sha256: 'b'.repeat(64) }, what: 'file x', signal: signal() }),
    ).rejects.toThrow(/already written to stdout/);
  });
});
