// Finding key-shaped strings in files: the pattern (ours by default, `--pattern` to override), a
// walk of the paths given (no symlinks followed, .git left to --git), and per file the line of each
// match. Only prefixes leave this module — never a matched secret.
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import { quoteInput } from '../../../core/ids.js';
import { isUsualKeyPrefix, keyPrefix } from '../../../core/redact.js';

/** The key format we model: `apk_` + 8 + `_` + 32 base62, not inside a longer word. */
export const DEFAULT_KEY_PATTERN = '(?<![A-Za-z0-9_])apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}(?![A-Za-z0-9])';

export interface KeyPattern {
  regex: RegExp;
  /** A literal every match contains, to skip files quickly (only for our own pattern). */
  marker: Buffer | undefined;
}

export function keyPattern(custom: string | undefined): KeyPattern {
  if (custom === undefined) return { regex: new RegExp(DEFAULT_KEY_PATTERN, 'g'), marker: Buffer.from('apk_') };
  let regex: RegExp;
  try {
    regex = new RegExp(custom, 'g');
  } catch (error) {
    throw new UsageError(`--pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  if (regex.test('')) throw new UsageError(`--pattern ${quoteInput(custom)} matches the empty string`);
  regex.lastIndex = 0;
  return { regex, marker: undefined };
}

export interface Match {
  /** Where: a path (relative to the scan root when inside it), or `commit:path` for history. */
  file: string;
  line: number;
  prefix: string;
  commit?: string;
}

/**
 * What is shown of a match: the prefix of our format (`apk_ab12cd34`, what the service lists keys
 * by). A --pattern match of another form may be a secret of any length, so it is cut as every
 * other secret is in messages (core/redact.ts keyPrefix: 4 characters of a long one, 2 of a medium
 * one, none of a short one) and ends in `…`, so it is never mistaken for the whole match: `sk_l…`,
 * `hu…`, or `…` alone for `hunter2`.
 */
export function matchPrefix(text: string): string {
  const prefix = keyPrefix(text);
  return isUsualKeyPrefix(prefix) ? prefix : `${prefix}…`;
}

/** Each match in one text: where it starts (an index into the text), its line (1-based) and its text. */
function* located(text: string, pattern: KeyPattern, firstLine: number): Generator<{ index: number; line: number; text: string }> {
  const regex = new RegExp(pattern.regex.source, pattern.regex.flags.includes('g') ? pattern.regex.flags : `${pattern.regex.flags}g`);
  let line = firstLine;
  let counted = 0;
  for (const match of text.matchAll(regex)) {
    for (let at = text.indexOf('\n', counted); at !== -1 && at < match.index; at = text.indexOf('\n', at + 1)) line++;
    counted = match.index;
    yield { index: match.index, line, text: match[0] };
  }
}

/** Matches in one text, with their line numbers (1-based). */
export function matchesIn(text: string, pattern: KeyPattern, file: string, commit?: string, firstLine = 1): Match[] {
  return [...located(text, pattern, firstLine)].map((match) => ({
    file,
    line: match.line,
    prefix: matchPrefix(match.text),
    ...(commit ? { commit } : {}),
  }));
}

/** Files bigger than this are read in pieces; a key split across two pieces is caught by the overlap. */
const PIECE = 8 * 1024 * 1024;
const OVERLAP = 512;

async function scanFile(path: string, shown: string, pattern: KeyPattern): Promise<Match[]> {
  const found: Match[] = [];
  const marker = pattern.marker?.toString('latin1');
  // The tail of the previous piece, the line it starts on and its offset in the file (latin1: one
  // character a byte).
  let carry = '';
  let carryLine = 1;
  let carryAt = 0;
  // Where in the file the previous piece's matches start: one inside the overlap is found again. By
  // offset, not by line and prefix, so that two keys with the same prefix on one line count twice.
  let reported = new Set<number>();
  for await (const chunk of createReadStream(path, { highWaterMark: PIECE })) {
    const text = carry + (chunk as Buffer).toString('latin1');
    const starts = new Set<number>();
    if (marker === undefined || text.includes(marker)) {
      for (const match of located(text, pattern, carryLine)) {
        const at = carryAt + match.index;
        starts.add(at);
        if (!reported.has(at)) found.push({ file: shown, line: match.line, prefix: matchPrefix(match.text) });
      }
    }
    reported = starts;
    const keep = Math.min(OVERLAP, text.length);
    carryLine += countLines(text, text.length - keep);
    carryAt += text.length - keep;
    carry = text.slice(text.length - keep);
  }
  return found;
}

function countLines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Why a path cannot be read, in words: `no such file or directory`, not `ENOENT`. */
function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a directory';
  return code ?? (error as Error).message;
}

/** Every match under the paths (files or directories, `typed` as given), in a stable order. */
export async function scanPaths(
  paths: readonly string[],
  cwd: string,
  pattern: KeyPattern,
  onFile?: () => void,
  typed: readonly string[] = paths,
): Promise<Match[]> {
  const found: Match[] = [];
  const visit = async (path: string, asTyped?: string): Promise<void> => {
    let info;
    try {
      info = await lstat(path);
    } catch (error) {
      // The path as the user typed it (not rewritten relative to here), the reason in words.
      throw new UsageError(`cannot read ${asTyped ?? (relative(cwd, path) || path)}: ${unreadable(error)}`);
    }
    if (info.isSymbolicLink()) return;
    if (info.isDirectory()) {
      const entries = (await readdir(path)).sort();
      for (const entry of entries) if (entry !== '.git') await visit(join(path, entry));
      return;
    }
    if (!info.isFile()) return;
    onFile?.();
    const shown = relative(cwd, path).startsWith('..') ? path : relative(cwd, path);
    try {
      found.push(...(await scanFile(path, shown, pattern)));
    } catch {
      // A file we may not read (permissions) is skipped, not fatal: the rest of the tree matters more.
    }
  };
  for (const [index, path] of paths.entries()) await visit(path, typed[index]);
  return found;
}
