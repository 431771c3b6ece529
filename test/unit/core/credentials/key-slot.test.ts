import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigStore } from '../../../../src/core/config.js';
import { KeychainUnavailableError } from '../../../../src/core/credentials/keychain.js';
import type { LocalEnvironmentError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { KeyWriteError, keySlot } from '../../../../src/core/credentials/key-slot.js';
import { FakeKeychain, KEY_A, KEY_B, tempConfigDir } from './fakes.js';

const config = (dir: string) => ({ dir }) as ConfigStore;

describe('keySlot', () => {
  it('keychain: reads and writes the profile@origin entry', async () => {
    const keychain = new FakeKeychain();
    const slot = keySlot(config(tempConfigDir()), () => keychain, {
      profileName: 'ci',
      origin: 'https://api.test:443',
      storage: 'keychain',
    });
    expect(await slot.read()).toBeUndefined();
    await slot.write(KEY_A);
    expect(keychain.entries.get('ci@https://api.test:443')).toBe(KEY_A);
    expect(await slot.read()).toBe(KEY_A);
    expect(slot.where).toBe('the OS keychain (ci@https://api.test:443)');
  });

  it('keychain: a refused write left the entry unchanged; a timed-out one may not have', async () => {
    const keychain = new FakeKeychain();
    const slot = keySlot(config(tempConfigDir()), () => keychain, {
      profileName: 'ci',
      origin: 'https://api.test:443',
      storage: 'keychain',
    });
    for (const [failure, unchanged] of [
      ['locked', true],
      ['unavailable', true],
      ['timeout', false],
    ] as const) {
      keychain.failure = new KeychainUnavailableError(failure, 'is locked');
      const error = (await slot.write(KEY_B).catch((e: unknown) => e)) as KeyWriteError;
      expect(error).toBeInstanceOf(KeyWriteError);
      expect(error.entryUnchanged, failure).toBe(unchanged);
      expect(exitCodeFor(error)).toBe(2);
      expect(error.message).toMatch(/could not write the key of profile "ci" to the OS keychain/);
    }
  });

  it('insecure file: 0600, atomic; a write that cannot happen leaves the old key', async () => {
    const dir = tempConfigDir();
    const slot = keySlot(config(dir), () => new FakeKeychain(), { profileName: 'ci', origin: 'x', storage: 'insecure-file' });
    await slot.write(KEY_A);
    const path = join(dir, 'credentials', 'ci.key');
    // The file records the origin it was stored for (issue 26 §6); another origin is not given the key.
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify({ origin: 'x', key: KEY_A })}\n`);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await slot.read()).toBe(KEY_A);
    const elsewhere = keySlot(config(dir), () => new FakeKeychain(), { profileName: 'ci', origin: 'y', storage: 'insecure-file' });
    const refused = await elsewhere.read().catch((e: unknown) => e);
    expect(exitCodeFor(refused)).toBe(10);
    expect((refused as Error).message).toMatch(/was stored for "x"; refusing to send it to "y"/);
    // A file written before the origin was recorded (the key alone) is still read.
    writeFileSync(path, `${KEY_A}\n`, { mode: 0o600 });
    expect(await elsewhere.read()).toBe(KEY_A);
    // A directory where the temp file would go cannot be created over, even as root.
    rmSync(join(dir, 'credentials'), { recursive: true });
    mkdirSync(join(dir, 'credentials'));
    chmodSync(join(dir, 'credentials'), 0o700);
    mkdirSync(path);
    const error = (await slot.write(KEY_B).catch((e: unknown) => e)) as KeyWriteError;
    expect(error).toBeInstanceOf(KeyWriteError);
    expect(error.entryUnchanged).toBe(true);
  });

  it('remove: deletes the entry or the file, says whether there was one, and names keychain trouble', async () => {
    const keychain = new FakeKeychain();
    const inKeychain = keySlot(config(tempConfigDir()), () => keychain, {
      profileName: 'ci',
      origin: 'https://api.test:443',
      storage: 'keychain',
    });
    await inKeychain.write(KEY_A);
    expect(await inKeychain.remove()).toBe(true);
    expect(await inKeychain.remove()).toBe(false);
    keychain.failure = new KeychainUnavailableError('locked', 'is locked');
    const error = (await inKeychain.remove().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('could not remove the key of profile "ci" from the OS keychain: the OS keychain is locked');
    expect(exitCodeFor(error)).toBe(2);
    // Not the way to store a key elsewhere (auth login --insecure-storage), which removes nothing.
    expect((error as LocalEnvironmentError).hint).toMatch(/^start or unlock the OS keychain .* and run it again; nothing was removed$/);
    const inFile = keySlot(config(tempConfigDir()), () => keychain, { profileName: 'ci', origin: 'x', storage: 'insecure-file' });
    await inFile.write(KEY_B);
    expect(await inFile.remove()).toBe(true);
    expect(await inFile.read()).toBeUndefined();
    expect(await inFile.remove()).toBe(false);
  });
});
