// The single executable's addon directory (issue 37): created 0700 where missing, and every directory
// above it owned by this user or root and writable by no one else (a sticky one like /tmp excepted).
// "Another user" is played by checking as a uid that owns nothing here, so no root is needed.
import { chmodSync, chownSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateDirectory, UnsafeDirectoryError } from '../../src/boot/private-directory.js';
import { tempDir } from '../helpers/temp.js';

const uid = process.getuid!();
/** A tree of this user's under the temp dir (its mkdtemp parent is 0700). */
function tree(): string {
  const base = tempDir('appraisal-private-dir-');
  chmodSync(base, 0o755);
  return base;
}
function refusal(path: string, as = uid): UnsafeDirectoryError {
  try {
    privateDirectory(path, as);
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafeDirectoryError);
    return error as UnsafeDirectoryError;
  }
  throw new Error(`${path} was accepted`);
}

describe('privateDirectory', () => {
  it('creates the missing directories 0700, one at a time, and returns the path', () => {
    const base = tree();
    const dir = join(base, 'cache', 'appraisal-cli', 'native');
    expect(privateDirectory(dir, uid)).toBe(dir);
    for (const made of [join(base, 'cache'), join(base, 'cache', 'appraisal-cli'), dir]) {
      expect(lstatSync(made).mode & 0o777).toBe(0o700);
    }
    // A second run accepts what the first made.
    expect(privateDirectory(dir, uid)).toBe(dir);
  });

  it('refuses a directory above it that another user owns, naming it', () => {
    const base = tree();
    // As root (CI), the directory is given to nobody; otherwise it is checked as a user who owns
    // nothing here (root's directories are trusted, so that trick needs a user other than root).
    if (uid === 0) chownSync(base, 65534, 65534);
    const owner = lstatSync(base).uid;
    const error = refusal(join(base, 'cache'), uid === 0 ? uid : uid + 4242);
    expect(error.path).toBe(base);
    expect(error.message).toBe(`${base} is owned by another user (uid ${owner})`);
  });

  it('refuses a directory above it that others can write (group or world), naming its mode', () => {
    const base = tree();
    const shared = join(base, 'shared');
    mkdirSync(shared, { mode: 0o700 });
    chmodSync(shared, 0o775);
    expect(refusal(join(shared, 'appraisal-cli', 'native')).message).toBe(`${shared} can be written by other users (mode 0775)`);
    chmodSync(shared, 0o777);
    expect(refusal(join(shared, 'appraisal-cli')).message).toBe(`${shared} can be written by other users (mode 0777)`);
  });

  it('accepts a sticky world-writable directory above it (as /tmp), where others cannot rename what is ours', () => {
    const base = tree();
    const sticky = join(base, 'tmp');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const dir = join(sticky, 'appraisal-cli');
    expect(privateDirectory(dir, uid)).toBe(dir);
    // ...but a subdirectory already there that is not ours is refused.
    expect(refusal(dir, uid + 4242).message).toMatch(/is owned by another user/);
  });

  it('refuses the directory itself when others can write it, or when it is not a directory', () => {
    const base = tree();
    const dir = join(base, 'native');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o1777);
    expect(refusal(dir).message).toBe(`${dir} can be written by other users (mode 1777)`);
    const file = join(base, 'a-file');
    writeFileSync(file, '');
    expect(refusal(join(file, 'native')).message).toBe(`${file} is not a directory`);
  });

  it('follows a symbolic link above it to its target, and checks the target and every directory above that', () => {
    const base = tree();
    const target = join(base, 'real');
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, join(base, 'link'));
    expect(privateDirectory(join(base, 'link', 'native'), uid)).toBe(join(target, 'native'));
    chmodSync(target, 0o770);
    expect(refusal(join(base, 'link', 'native')).message).toBe(`${target} can be written by other users (mode 0770)`);
  });
});
