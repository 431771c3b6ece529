import { describe, expect, it } from 'vitest';
import {
  classifyKeychainError,
  DEFAULT_KEYRING_TIMEOUT_MS,
  keychainAccount,
  keyringTimeoutMs,
  KeychainUnavailableError,
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
