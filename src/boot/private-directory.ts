// A directory only this user can change, and every directory above it checked the way OpenSSH checks
// ~/.ssh (issue 37): each is owned by this user or root and writable by no one else — a directory
// writable by others may only be a sticky one (/tmp), where others cannot rename or remove what is
// ours. Then nobody but this user and root can swap anything at or under the path, so what is checked
// there stays true. Missing components are created 0700, one at a time, and checked like the rest.
// No ownership to compare on Windows (no getuid): only the kind is checked there.
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { dirname, join, parse, resolve, sep } from 'node:path';

const STICKY = 0o1000;

/** The path cannot be trusted: one line, the offending directory first. */
export class UnsafeDirectoryError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'UnsafeDirectoryError';
  }
}

/** What makes one directory on the way unsafe, or undefined. `last`: the directory itself, which must be ours. */
function problemOf(info: Stats, uid: number | undefined, last: boolean): string | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link (it changed while being checked)';
  if (!info.isDirectory()) return 'is not a directory';
  if (uid === undefined) return undefined;
  if (last ? info.uid !== uid : info.uid !== uid && info.uid !== 0) return `is owned by another user (uid ${info.uid})`;
  const othersWrite = (info.mode & 0o022) !== 0;
  if (othersWrite && (last || (info.mode & STICKY) === 0))
    return `can be written by other users (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')})`;
  return undefined;
}

/** The deepest directory of `path` that exists, with its symbolic links resolved, and what is left below it. */
function existingPart(path: string): { real: string; rest: string[] } {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return { real: realpathSync(at), rest };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(at) === at) throw error;
      rest.unshift(at.slice(dirname(at).length).replace(/^[\\/]/, ''));
      at = dirname(at);
    }
  }
}

/**
 * `path` as a private directory of this user: created (0700) where missing, and it and every
 * directory above it checked. Throws UnsafeDirectoryError naming the first one that fails.
 */
export function privateDirectory(path: string, uid = typeof process.getuid === 'function' ? process.getuid() : undefined): string {
  const { real, rest } = existingPart(resolve(path));
  const { root } = parse(real);
  const parts = [...real.slice(root.length).split(sep).filter(Boolean), ...rest];
  const top = problemOf(lstatSync(root), uid, parts.length === 0);
  if (top) throw new UnsafeDirectoryError(root, top);
  let at = root;
  parts.forEach((part, index) => {
    at = join(at, part);
    const last = index === parts.length - 1;
    let info: Stats;
    try {
      info = lstatSync(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      try {
        mkdirSync(at, { mode: 0o700 });
      } catch (made) {
        // Someone made it first: it is checked below like any other.
        if ((made as NodeJS.ErrnoException).code !== 'EEXIST') throw made;
      }
      info = lstatSync(at);
    }
    const problem = problemOf(info, uid, last);
    if (problem) throw new UnsafeDirectoryError(at, problem);
  });
  return at;
}
