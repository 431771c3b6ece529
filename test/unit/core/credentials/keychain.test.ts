import { describe, expect, it } from 'vitest';
import {
  classifyKeychainError,
  DEFAULT_KEYRING_TIMEOUT_MS,
  keychainAccount,
  keyringTimeoutMs,
  KeychainUnavailableError,
  onceMoreIfGone,
  RETRY_AFTER_MS,
} from '../../../../src/core/credentials/keychain.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('keychain helpers', () => {
  it('names the account <profile>@<origin>', () => {
    expect(keychainAccount('staging', 'https://api.example.com:443')).toBe('staging@https://api.example.com:443');
  });

  it('reads APPRAISAL_KEYRING_TIMEOUT in milliseconds', () => {
    expect(keyringTimeoutMs({})).toBe(DEFAULT_KEYRING_TIMEOUT_MS);
    expect(keyringTimeoutMs({ APPRAISAL_KEYRING_TIMEOUT: '250' })).toBe(250);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => keyringTimeoutMs({ APPRAISAL_KEYRING_TIMEOUT: bad }), bad).toThrow(UsageError);
    }
  });

  it('classifies native failures with a short reason', () => {
    const dbus = classifyKeychainError(
      new Error('Platform failure: DBus error: Failed to connect to socket /nonexistent: No such file or directory'),
    );
    expect(dbus).toBeInstanceOf(KeychainUnavailableError);
    expect(dbus.failure).toBe('unavailable');
    expect(dbus.message).toMatch(/^the OS keychain is not available \(Platform failure: DBus error/);
    const locked = classifyKeychainError(new Error("Couldn't access platform storage: NoStorageAccess: collection is locked"));
    expect(locked.failure).toBe('locked');
    const long = classifyKeychainError(new Error('x'.repeat(1000)));
    expect(long.message.length).toBeLessThan(220);
    const same = new KeychainUnavailableError('timeout', 'did not answer: timed out after 3s');
    expect(classifyKeychainError(same)).toBe(same);
  });
});

describe('a Secret Service that goes away during a call', () => {
  const GONE = 'Platform failure: DBus error: Message recipient disconnected from message bus without replying';
  /** A call that fails with each of `failures` in turn, then answers `ok`; how many times it ran. */
  const flaky = (...failures: string[]) => {
    let calls = 0;
    const call = async () => {
      const failure = failures[calls++];
      if (failure !== undefined) throw new Error(failure);
      return 'ok';
    };
    return { call, calls: () => calls };
  };
  const pauses: number[] = [];
  const pause = async (ms: number) => void pauses.push(ms);

  it('is asked once more after a short pause, and answers then', async () => {
    const gone = flaky(GONE);
    await expect(onceMoreIfGone(gone.call, pause)).resolves.toBe('ok');
    expect(gone.calls()).toBe(2);
    expect(pauses).toEqual([RETRY_AFTER_MS]);
  });

  it('is not asked a third time, and any other failure is not retried', async () => {
    const twice = flaky(GONE, GONE);
    await expect(onceMoreIfGone(twice.call, pause)).rejects.toThrow(GONE);
    expect(twice.calls()).toBe(2);
    const locked = flaky('Platform secure storage failure: the collection is locked');
    await expect(onceMoreIfGone(locked.call, pause)).rejects.toThrow(/locked/);
    expect(locked.calls()).toBe(1);
  });
});
