// The file an upload will send, checked before any request: it exists, is a regular file, and this
// process may read it. Each failure is a UsageError (exit 2) that says which.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { UsageError } from '../../../core/errors.js';

export interface LocalFile {
  path: string;
  size: number;
}

/** `path` is absolute; `shown` is the path as the user typed it, for messages. */
export async function checkReadableFile(path: string, shown: string): Promise<LocalFile> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`no such file: ${shown}`);
    if (code === 'ENOTDIR') throw new UsageError(`no such file: ${shown} (a part of the path is not a directory)`);
    if (code === 'EACCES') throw new UsageError(`cannot read ${shown}: permission denied`);
    throw new UsageError(`cannot read ${shown}: ${code ?? (error as Error).message}`);
  }
  if (info.isDirectory()) throw new UsageError(`${shown} is a directory; upload takes one file`);
  // A FIFO or device has no size to announce in content-length, and opening a FIFO would block.
  if (!info.isFile()) throw new UsageError(`${shown} is not a regular file`);
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new UsageError(`cannot read ${shown}: permission denied`);
  }
  return { path, size: info.size };
}
