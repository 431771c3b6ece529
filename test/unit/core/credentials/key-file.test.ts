// `--api-key-file` (issue 26 §11): /dev/zero and an endless pipe report no useful size; the read is
// capped by the bytes actually read (16 KiB), so both end at once with one line (exit 2) instead of
// reading hundreds of megabytes. A key given through a pipe (`<(pass show key)`) still works.
import { execFileSync } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readApiKeyFile } from '../../../../src/core/credentials/key-file.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { tempDir } from '../../../helpers/temp.js';

const KEY = `apk_AbCd1234_${'k'.repeat(32)}`;
const io = (cwd: string) => ({ stdin: Readable.from([]), cwd });

describe('--api-key-file reads at most 16 KiB, counted as read', () => {
  it.runIf(process.platform === 'linux')('/dev/zero: refused as too large, at once', async () => {
    const started = process.memoryUsage().rss;
    const error = await readApiKeyFile('/dev/zero', io('/')).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('--api-key-file /dev/zero is too large to be an API key (over 16384 bytes)');
    expect(exitCodeFor(error)).toBe(2);
    expect(process.memoryUsage().rss - started).toBeLessThan(64 * 1024 * 1024);
  });

  it.runIf(process.platform !== 'win32')('an endless pipe: refused as too large; a pipe holding a key: read', async () => {
    const dir = tempDir('key-file-');
    const fifo = join(dir, 'endless');
    execFileSync('mkfifo', [fifo]);
    const writer = createWriteStream(fifo);
    writer.on('error', () => undefined); // the reader closes first
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (writer.write(chunk));
    };
    writer.on('drain', pump);
    writer.on('open', pump);
    const error = await readApiKeyFile(fifo, io(dir)).catch((caught: unknown) => caught);
    writer.destroy();
    expect((error as Error).message).toMatch(/too large to be an API key/);
    expect(exitCodeFor(error)).toBe(2);

    const keyPipe = join(dir, 'key');
    execFileSync('mkfifo', [keyPipe]);
    const keyWriter = createWriteStream(keyPipe);
    keyWriter.end(`${KEY}\n`);
    expect(await readApiKeyFile(keyPipe, io(dir))).toBe(KEY);
  });

  it('a plain file holding the key is read as before', async () => {
    const dir = tempDir('key-file-');
    writeFileSync(join(dir, 'key.txt'), `  ${KEY}\n`, { mode: 0o600 });
    expect(await readApiKeyFile('key.txt', io(dir))).toBe(KEY);
  });
});
