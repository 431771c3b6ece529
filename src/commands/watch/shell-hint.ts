// Paths in the commands a hint suggests (`chmod 600 PATH`), as words a POSIX shell reads back as that
// path: a hint is copied and pasted, and `chmod 600 /srv/dir with spaces/my secret` changes the mode
// of three other names (or, with a `;` or `$(…)` in the path, runs something else). The refusals of
// watch's files (the secret file, the state file, the outbox, the dead letters, the lock) come from
// core/owned-file.ts, whose hints put the path in as it is; watch has no business in core (another
// change owns it), so its refusals are re-worded here on their way out. smoke's quoting is its own.
import { UnsafeFileError } from '../../core/owned-file.js';

/** Characters a shell word may hold unquoted: anything else is single-quoted. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `text` as one POSIX shell word: as it is when plain, else in single quotes (a ' as '\''). */
export function shellWord(text: string): string {
  return PLAIN.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The error, with the path in its hint's `commands` as a shell word; anything else as it is. Only a
 * command that ends with the path is touched: `chmod 600 PATH`, `chmod go-w PATH`.
 */
export function withShellWords(error: unknown): unknown {
  if (!(error instanceof UnsafeFileError) || error.hint === undefined) return error;
  // owned-file.ts names some files `--flag PATH` in messages; its hints use the path alone.
  const file = error.path.replace(/^--[a-z-]+ /, '');
  const word = shellWord(file);
  if (word === file) return error;
  const hint = error.hint.replace(/`([^`]*)`/g, (whole, command: string) =>
    command.endsWith(` ${file}`) ? `\`${command.slice(0, -file.length)}${word}\`` : whole,
  );
  return hint === error.hint ? error : new UnsafeFileError(error.path, error.problem, hint);
}
