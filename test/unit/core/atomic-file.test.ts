import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/core/atomic-file.js';
import { tempDir } from '../../helpers/temp.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe.each([
  ['async', (path: string, data: string, mode?: number) => writeFileAtomic(path, data, mode === undefined ? {} : { mode })],
  ['sync', async (path: string, data: string, mode?: number) => writeFileAtomicSync(path, data, mode === undefined ? {} : { mode })],
])('writeFileAtomic (%s)', (_name, write) => {
  it('replaces the file with exactly the new content, 0600 by default even under umask 000', async () => {
    const dir = tempDir('atomic-');
    const path = join(dir, 'config.json');
    writeFileSync(path, 'old content that is longer', { mode: 0o666 });
    const previous = process.umask(0);
    try {
      await write(path, '{"new":true}');
    } finally {
      process.umask(previous);
    }
    expect(readFileSync(path, 'utf8')).toBe('{"new":true}');
    expect(modeOf(path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('honours an explicit mode', async () => {
    const dir = tempDir('atomic-');
    const path = join(dir, 'report.xml');
    await write(path, '<x/>', 0o644);
    expect(modeOf(path)).toBe(0o644);
  });

  it('leaves no temp file and the old content when the write fails', async () => {
    const dir = tempDir('atomic-');
    // Renaming a file over a directory fails after the temp file was written.
    const target = join(dir, 'taken');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(target, 'inner'), { recursive: true });
    await expect(write(target, 'data')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});
