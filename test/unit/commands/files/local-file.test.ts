import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { checkReadableFile } from '../../../../src/commands/files/transfer/local-file.js';
import { tempDir } from '../../../helpers/temp.js';

const dir = tempDir('appraisal-lf-');

describe('checkReadableFile', () => {
  it('returns the size of a readable file', async () => {
    const path = join(dir, 'a.txt');
    writeFileSync(path, 'hello');
    await expect(checkReadableFile(path, 'a.txt')).resolves.toEqual({ path, size: 5 });
  });

  it.each([
    ['a missing file', () => join(dir, 'nope.pdf'), 'no such file: shown'],
    ['a directory', () => dir, 'shown is a directory; upload takes one file'],
    ['a path through a file', () => join(dir, 'a.txt', 'x'), 'no such file: shown (a part of the path is not a directory)'],
  ])('refuses %s with a usage error', async (_, path, message) => {
    const error = await checkReadableFile(path(), 'shown').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
  });

  // root reads any file, so this can only be seen as another user.
  const asRoot = process.getuid?.() === 0;
  it.skipIf(asRoot)(`refuses an unreadable file${asRoot ? ' [skipped: running as root, which reads any file]' : ''}`, async () => {
    const path = join(dir, 'secret.pdf');
    writeFileSync(path, 'x');
    chmodSync(path, 0o000);
    await expect(checkReadableFile(path, 'secret.pdf')).rejects.toThrow('cannot read secret.pdf: permission denied');
  });

  it('refuses a FIFO without opening it', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(checkReadableFile(fifo, 'pipe')).rejects.toThrow('pipe is not a regular file');
  });
});
