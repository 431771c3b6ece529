// Reading a key the user hands over explicitly: `--api-key-file PATH`, `--api-key-file -` (stdin)
// and `auth login --with-key` (stdin). Keys are never taken as flag values.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { readAtMost } from '../owned-file.js';

/**
 * Far more than any key; stops `--api-key-file /dev/zero`, an endless pipe or a huge file from being
 * read whole. Counted in bytes actually read: a pipe or a device has no useful st_size.
 */
const MAX_KEY_BYTES = 16 * 1024;

/** Trim surrounding whitespace and check that what remains can be a single key. */
export function cleanKey(raw: string, source: string): string {
  const key = raw.trim();
  if (key === '') throw new UsageError(`${source} is empty: expected an API key`);
  if (/\s/.test(key)) {
    throw new UsageError(`${source} must contain only the API key (found whitespace or several lines)`);
  }
  return key;
}

export async function readStream(stream: Readable, source: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_KEY_BYTES) throw new UsageError(`${source} is too large to be an API key`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface KeySourceIO {
  stdin: Readable;
  cwd: string;
}

/** `/dev/fd/N` or `/proc/self/fd/N`: a descriptor this process was started with (`3< <(…)`). */
const DESCRIPTOR = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/;

/** `--api-key-file PATH|-`: the key from a file, or from stdin for `-`. */
export async function readApiKeyFile(pathOrDash: string, io: KeySourceIO): Promise<string> {
  if (pathOrDash === '-') return cleanKey(await readStream(io.stdin, 'stdin (--api-key-file -)'), 'stdin (--api-key-file -)');
  const path = resolve(io.cwd, pathOrDash);
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const info = await handle.stat();
      if (info.isDirectory()) {
        throw new UsageError(`--api-key-file ${pathOrDash} is a directory, not a file`, {
          hint: 'give the path of the file that holds the key (one line), or - to read it from stdin',
        });
      }
      const { bytes, over } = await readAtMost(handle, MAX_KEY_BYTES);
      if (over) {
        throw new UsageError(`--api-key-file ${pathOrDash} is too large to be an API key (over ${MAX_KEY_BYTES} bytes)`, {
          hint: 'the file must hold only the key, on one line',
        });
      }
      text = bytes.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // A socket cannot be opened again by name (a Node parent's 'pipe' is one): read the descriptor
    // itself, once, bounded like stdin, and close it.
    const descriptor = DESCRIPTOR.exec(pathOrDash);
    if (code === 'ENXIO' && descriptor) {
      const source = `--api-key-file ${pathOrDash}`;
      return cleanKey(await readStream(createReadStream('', { fd: Number(descriptor[1]) }), source), source);
    }
    const why: Record<string, [string, string]> = {
      ENOENT: ['no such file', `check the path (relative paths start at ${io.cwd}), or pass - to read the key from stdin`],
      EACCES: ['permission denied', 'make the file readable by you (chmod 600 is enough), or pass - to read the key from stdin'],
      EISDIR: ['it is a directory, not a file', 'give the path of the file that holds the key, or - to read it from stdin'],
      ENOTDIR: ['a part of the path is not a directory', 'check the path'],
    };
    const [reason, hint] = why[code ?? ''] ?? [
      code ?? (error as Error).message,
      'give a readable file that holds only the key, or - for stdin',
    ];
    throw new UsageError(`cannot read --api-key-file ${pathOrDash}: ${reason}`, { hint });
  }
  return cleanKey(text, `--api-key-file ${pathOrDash}`);
}
