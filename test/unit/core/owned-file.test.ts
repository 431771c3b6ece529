// core/owned-file.ts, the one way the CLI opens a file it owns (issue 26 §1): each planted thing —
// a symbolic link, a hard link, a FIFO, a device, a file others can write — is refused before a byte
// is read or written; new files have their final mode from the first instant; reads are bounded by
// the bytes read.
import { execFileSync } from 'node:child_process';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/core/exit-codes.js';
import {
  createOwned,
  createOwnedSync,
  openOwned,
  privateDirProblem,
  readAtMostSync,
  readOwned,
  readOwnedSync,
  UnsafeFileError,
} from '../../../src/core/owned-file.js';
import { tempDir } from '../../helpers/temp.js';

const unix = process.platform !== 'win32';

describe('owned-file', () => {
  it('opens a regular file of ours with one link; undefined when there is none', async () => {
    const dir = tempDir('owned-');
    const path = join(dir, 'ours');
    writeFileSync(path, 'hello', { mode: 0o600 });
    const handle = await openOwned(path, 'read');
    expect((await handle!.readFile()).toString()).toBe('hello');
    await handle!.close();
    expect(await openOwned(join(dir, 'missing'), 'read')).toBeUndefined();
  });

  it.runIf(unix)('refuses a symbolic link (even to a file of ours), a hard link, a FIFO and a group-writable file: exit 2', async () => {
    const dir = tempDir('owned-');
    const target = join(dir, 'target');
    writeFileSync(target, 'precious', { mode: 0o600 });
    symlinkSync(target, join(dir, 'link'));
    linkSync(target, join(dir, 'hard'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'shared'), 'x', { mode: 0o600 });
    execFileSync('chmod', ['664', join(dir, 'shared')]);
    const cases: Array<[string, RegExp]> = [
      ['link', /link is a symbolic link; refusing to use it/],
      ['hard', /hard has 2 hard links/],
      ['fifo', /fifo is a FIFO \(named pipe\), not a regular file/],
      ['shared', /shared can be written by other users \(mode 664\)/],
    ];
    for (const [name, message] of cases) {
      for (const how of ['read', 'append', 'update'] as const) {
        const error = await openOwned(join(dir, name), how).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(UnsafeFileError);
        expect((error as Error).message).toMatch(message);
        expect(exitCodeFor(error)).toBe(2);
      }
    }
    expect(readFileSync(target, 'utf8')).toBe('precious');
  });

  it.runIf(unix)('a key file must not be readable by others either (private)', async () => {
    const dir = tempDir('owned-');
    const path = join(dir, 'key');
    writeFileSync(path, 'apk_secret', { mode: 0o600 });
    execFileSync('chmod', ['640', path]);
    await expect(readOwned(path, 100, { private: true })).rejects.toThrow(/can be read by other users \(mode 640\)/);
  });

  it.runIf(unix)('creates with O_EXCL and the exact mode whatever the umask, never through a link', async () => {
    const dir = tempDir('owned-');
    const old = process.umask(0o077);
    try {
      const handle = await createOwned(join(dir, 'wide'), { mode: 0o644 });
      await handle.close();
      expect(statSync(join(dir, 'wide')).mode & 0o777).toBe(0o644);
    } finally {
      process.umask(old);
    }
    const old2 = process.umask(0);
    try {
      closeSync(createOwnedSync(join(dir, 'private')));
      expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old2);
    }
    const victim = join(dir, 'victim');
    symlinkSync(victim, join(dir, 'planted'));
    await expect(createOwned(join(dir, 'planted'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(() => statSync(victim)).toThrow();
  });

  it.runIf(process.platform === 'linux')('reads are bounded by the bytes read: /dev/zero gives its first bytes, never its st_size', () => {
    const fd = openSync('/dev/zero', 'r');
    try {
      const { bytes, over } = readAtMostSync(fd, 32);
      expect(bytes.length).toBe(32);
      expect(over).toBe(true);
    } finally {
      closeSync(fd);
    }
    // And the name /dev/zero itself is refused before it is opened.
    expect(() => readOwnedSync('/dev/zero', 32)).toThrow(/is a device, not a regular file/);
  });

  it.runIf(unix)('readOwned truncates, or with refuseLonger refuses, a file longer than asked', async () => {
    const dir = tempDir('owned-');
    const path = join(dir, 'long');
    writeFileSync(path, '12345678', { mode: 0o600 });
    expect(await readOwned(path, 4)).toBe('1234');
    expect(readOwnedSync(path, 4)).toBe('1234');
    await expect(readOwned(path, 4, { refuseLonger: true })).rejects.toThrow(/is larger than 4 bytes/);
  });

  it.runIf(unix)('a private directory is ours, 0700 and not a link', () => {
    const dir = tempDir('owned-');
    const ok = join(dir, 'ok');
    mkdirSync(ok, { mode: 0o700 });
    execFileSync('chmod', ['700', ok]);
    expect(privateDirProblem(statSync(ok))).toBeUndefined();
    execFileSync('chmod', ['755', ok]);
    expect(privateDirProblem(statSync(ok))).toBe('has mode 755, not 700');
  });

  it("the chmod of a refusal's hint holds the path as one shell word, which a shell reads back as the path", () => {
    const dir = tempDir('appraisal-owned-');
    for (const name of ['plain.state', 'dir with spaces', "it's secret", '$(id);rm']) {
      const path = join(dir, name);
      writeFileSync(path, 'x', { mode: 0o644 });
      execFileSync('chmod', ['644', path]);
      const error = new UnsafeFileError(path, 'can be read by other users (mode 644)');
      const command = /^run `(chmod 600 .*)` if it is yours, else remove it$/.exec(error.hint ?? '')?.[1];
      expect(command, error.hint).toBeDefined();
      execFileSync('sh', ['-c', command!]);
      expect(statSync(path).mode & 0o777, name).toBe(0o600);
      const writable = new UnsafeFileError(path, 'can be written by other users (mode 666)');
      expect(writable.hint).toContain(`chmod go-w ${name === 'plain.state' ? path : "'"}`);
    }
  });

  it('a directory where a file belongs: the hint asks for a file, not for removing the directory', async () => {
    const dir = tempDir('appraisal-owned-');
    mkdirSync(join(dir, 'state'));
    const error = await readOwned(join(dir, 'state'), 1024).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UnsafeFileError);
    expect((error as UnsafeFileError).message).toBe(`${join(dir, 'state')} is a directory, not a regular file; refusing to use it`);
    expect((error as UnsafeFileError).hint).toBe('give the path of a file, not of a directory');
  });
});
