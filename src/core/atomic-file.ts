// Replace a small file all at once: write a temp file beside it (created with the final mode),
// fsync, rename. A reader — or a crash — sees the old file or the new one, never half of either.
// Streams (exports, downloads) have their own writers in output/destination.ts and files/download.ts.
// The temp file is made by owned-file.ts (O_EXCL|O_NOFOLLOW, its final mode from the first instant);
// the rename replaces whatever is at the name (a planted link is replaced, never written through).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createOwned, createOwnedSync } from './owned-file.js';

export interface AtomicWriteOptions {
  /** Final mode of the file; default 0600 (most of what we write is private). */
  mode?: number;
  /**
   * false: no fsync, for a cache's hint that a crash may lose: a reader sees the old file or the new
   * one, and after a crash possibly an empty one, which it must take for none. Default true.
   */
  durable?: boolean;
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o600;
  const temp = tempPathFor(path);
  try {
    const handle = await createOwned(temp, { mode });
    try {
      await handle.writeFile(data);
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (options.durable !== false) await syncDirectory(dirname(path));
}

/** Make a rename in `dir` durable. Not every platform lets a directory be opened: best effort. */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file is written and renamed; only crash-durability of the rename is not guaranteed.
  }
}

export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const mode = options.mode ?? 0o600;
  const temp = tempPathFor(path);
  try {
    const fd = createOwnedSync(temp, { mode });
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      if (options.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
