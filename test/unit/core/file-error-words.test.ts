// A failed file operation's reason in words (src/core/file-error-words.ts): the common codes named,
// any other code in the system's own wording, and an error without a code as its message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileErrorWords } from '../../../src/core/file-error-words.js';

/** What a real failed call threw. */
async function thrown(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('it did not fail');
}

describe('fileErrorWords', () => {
  it('names the codes a user meets in words, from real failures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'appraisal-words-'));
    writeFileSync(join(dir, 'file'), '');
    expect(fileErrorWords(await thrown(() => open(join(dir, 'missing'))))).toBe('no such file or directory');
    expect(fileErrorWords(await thrown(() => open(join(dir, 'file', 'below'))))).toBe('a part of the path is not a directory');
    expect(fileErrorWords(await thrown(() => open(dir, 'w')))).toBe('it is a directory');
    expect(fileErrorWords(await thrown(() => open(join(dir, 'file'), 'wx')))).toBe('it exists already');
    expect(
      fileErrorWords(await thrown(() => open('/dev/full', 'r+').then((handle) => handle.write('x').finally(() => handle.close())))),
    ).toBe('no space left on device');
    expect(fileErrorWords(Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' }))).toBe('disk quota exceeded');
  });

  it('says any other code in the system wording, without the code or the call; an error without a code is its message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'appraisal-words-'));
    const notEmpty = await thrown(() => rename(tmpdir(), join(dir, 'x')));
    expect((notEmpty as NodeJS.ErrnoException).code).toMatch(/^E[A-Z]+$/);
    expect(fileErrorWords(notEmpty)).not.toMatch(/\bE[A-Z]{3,}\b|rename|'/);
    expect(fileErrorWords(Object.assign(new Error('ENOTSUP: operation not supported on socket, copyfile'), { code: 'ENOTSUP' }))).toBe(
      'operation not supported on socket',
    );
    expect(fileErrorWords(Object.assign(new Error('something odd'), { code: 'EWEIRD' }))).toBe('EWEIRD');
    expect(fileErrorWords(new Error('the handle was closed'))).toBe('the handle was closed');
  });
});
