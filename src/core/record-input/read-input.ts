// Reading the text of `--data @file` or `--data -` (stdin): bounded in size, UTF-8 only, and
// interruptible while waiting for input that never ends.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';

/** Larger input is certainly a mistake (a wrong file), and would be read into memory. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

function decode(bytes: Uint8Array, source: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${source}: not UTF-8 text`);
  }
  // A byte-order mark from a Windows editor is not part of the JSON.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * `--api-key-file -` reads the key from stdin; an input given as `-` (`--data -`, an import of `-`)
 * would read the same stream: refused before either is read (exit 2), naming both.
 */
export function refuseSharedStdin(ctx: Pick<Context, 'globals'>, input: string): void {
  if (ctx.globals.apiKeyFile !== '-') return;
  throw new UsageError(`--api-key-file - and ${input} both read stdin; only one of them can`, {
    hint: 'give the key from a file (--api-key-file PATH, APPRAISAL_API_KEY or a stored profile), or the input from a file',
  });
}

const RECORD_ON_STDIN = 'pipe the record in, e.g. `cat record.json | appraisal props create --data -`, or use --data @record.json';

/** `source` names the flag in messages (`--data -`); `hint`, what to do when stdin is a terminal. */
export async function readStdin(ctx: Context, stdin: Readable, source: string, hint = RECORD_ON_STDIN): Promise<string> {
  if (ctx.io.stdinIsTTY) throw new UsageError(`${source} reads stdin, but stdin is a terminal`, { hint });
  const chunks: Buffer[] = [];
  let size = 0;
  const signal = ctx.signal;
  const reading = (async () => {
    for await (const chunk of stdin) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > MAX_INPUT_BYTES) throw new UsageError(`${source}: input is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
      chunks.push(buffer);
    }
  })();
  // Ctrl-C while waiting for input that never ends.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new InterruptedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  reading.catch(() => undefined);
  aborted.catch(() => undefined);
  try {
    await Promise.race([reading, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  return decode(Buffer.concat(chunks), source);
}

export async function readDataFile(ctx: Context, name: string, source: string): Promise<string> {
  if (name === '') throw new UsageError('--data @ needs a file name, e.g. --data @record.json');
  const path = resolve(ctx.cwd, name);
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${source}: is a directory, not a file`);
    if (info.size > MAX_INPUT_BYTES) throw new UsageError(`${source}: file is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
    return decode(await readFile(path), source);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${source}: file not found`);
    if (code === 'EACCES' || code === 'EPERM') throw new UsageError(`${source}: permission denied`);
    if (code === 'EISDIR') throw new UsageError(`${source}: is a directory, not a file`);
    throw new UsageError(`${source}: cannot read the file (${code ?? (error as Error).message})`);
  }
}
