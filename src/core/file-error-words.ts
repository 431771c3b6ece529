// What a failed file operation's error code means, in the words a message to the user carries
// (`no space left on device`, not `ENOSPC`): every "cannot read / create / write" line names the
// path itself and takes its reason from here.

/** Codes whose system wording reads oddly in a sentence, or that Node gives without one. */
const WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'I/O error',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EEXIST: 'it exists already',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EXDEV: 'not on the same file system',
  EBUSY: 'resource busy',
};

/**
 * The reason of a failed file operation: its code in words, else the system's own wording of it
 * (Node's message is `CODE: words, syscall 'path'`: the words only), else the message.
 */
export function fileErrorWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && WORDS[code] !== undefined) return WORDS[code];
  const message = error instanceof Error ? error.message : String(error);
  return /^E[A-Z0-9]+: ([^,]+)/.exec(message)?.[1] ?? code ?? message;
}
