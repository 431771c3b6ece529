// The one check of a `--out PATH` before any work: the parent directory exists, PATH is not a
// directory, a device or a symbolic link. The output plan (output-plan.ts) runs it at most once per
// run and hands the result to every writer, so the path is looked at (lstat, stat) once.
import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.js';
import { fileErrorWords } from './file-error-words.js';

export interface OutTarget {
  /** Absolute path the file is renamed to. */
  path: string;
  /** Mode of the file being replaced, kept on the new one. */
  mode: number | undefined;
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Resolves to the absolute target; UsageError (exit 2) otherwise. `out` is the path as given, for messages. */
export async function checkOutPath(cwd: string, out: string): Promise<OutTarget> {
  if (out.trim() === '') throw new UsageError('--out needs a file path');
  const path = resolve(cwd, out);
  if (/[\\/]$/.test(out)) throw new UsageError(`--out ${out} names a directory; give a file path`);
  // A symbolic link at PATH is refused: writing through it would silently replace whatever file it
  // points at (another user's, a config file…), and replacing the link would surprise whoever made it.
  let existing;
  try {
    existing = await lstat(path);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EACCES') throw new UsageError(`--out ${out}: permission denied`);
    if (code === 'ENOTDIR') throw new UsageError(`--out ${out}: ${dirname(out)} is not a directory`);
    if (code !== 'ENOENT') throw new UsageError(`--out ${out}: cannot use this path (${fileErrorWords(error)})`);
  }
  if (existing?.isSymbolicLink()) {
    const target = await realpath(path).catch(() => undefined);
    // `/dev/stdout` and the like: a link to this process's own pipe or terminal, which has no path.
    const followed = target === undefined ? await stat(path).catch(() => undefined) : undefined;
    if (followed && !followed.isFile()) {
      const kind = followed.isFIFO() ? 'a pipe' : followed.isSocket() ? 'a socket' : 'a terminal or device';
      throw new UsageError(`--out ${out} is not a file but ${kind}; --out writes a file, renamed into place when it is complete`, {
        hint: 'to write to standard output, leave --out out',
      });
    }
    throw new UsageError(`--out ${out} is a symbolic link${target ? ` to ${target}` : ' (dangling)'}; refusing to write through it`, {
      hint: target
        ? `write to the file itself (--out ${target}), or remove the link first`
        : 'remove the link first, or choose another path',
    });
  }
  if (existing?.isDirectory()) throw new UsageError(`--out ${out} is a directory; give a file path`);
  if (existing && !existing.isFile()) throw new UsageError(`--out ${out} is not a regular file`);
  const dir = dirname(path);
  try {
    const dirStat = await stat(dir);
    if (!dirStat.isDirectory()) throw new UsageError(`--out ${out}: ${dir} is not a directory`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = codeOf(error);
    if (code === 'ENOENT') throw new UsageError(`--out ${out}: directory ${dir} does not exist`);
    if (code === 'ENOTDIR') throw new UsageError(`--out ${out}: ${dir} is not a directory`);
    if (code === 'EACCES') throw new UsageError(`--out ${out}: permission denied for ${dir}`);
    throw new UsageError(`--out ${out}: cannot use directory ${dir} (${fileErrorWords(error)})`);
  }
  return { path, mode: existing ? existing.mode & 0o7777 : undefined };
}
