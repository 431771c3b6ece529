import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigStore } from '../../../../src/core/config.js';
import type { Context } from '../../../../src/core/context.js';
import { EXPIRY_STATE_FILE, noticeKeyExpiry, rememberKeyExpiry, warnKeyExpiry } from '../../../../src/core/credentials/expiry-notice.js';
import type { Session } from '../../../../src/core/session.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { KEY_A, tempConfigDir } from './fakes.js';

const PREFIX = 'apk_AAAAaaaa';

function session(prefix = PREFIX, profileName = 'default'): Session {
  return {
    profileName,
    profile: undefined,
    baseUrl: 'https://api.test',
    origin: 'https://api.test:443',
    environment: 'production',
    caFile: undefined,
    credential: { secret: KEY_A, prefix, source: 'keychain', kind: 'api-key' },
  };
}

function context(dir: string, now: Date) {
  const fake = fakeContext({ now: () => now, config: { dir } as ConfigStore });
  return { ...fake, ctx: fake.ctx as Context };
}

describe('the once-a-day expiry notice', () => {
  it('warns when the cached expiry of the key in use is within 14 days, once per day per profile', async () => {
    const dir = tempConfigDir();
    rememberKeyExpiry(dir, 'default', { prefix: PREFIX, expiresAt: '2026-03-10T00:00:00.000Z' });
    const day1 = new Date(2026, 2, 1, 9);
    const first = context(dir, day1);
    await noticeKeyExpiry(first.ctx, session());
    expect(first.stderr()).toBe(
      `warning: key ${PREFIX}… expires in 9 days (2026-03-10T00:00:00.000Z); rotate it with appraisal keys rotate --profile default\n`,
    );
    const again = context(dir, new Date(2026, 2, 1, 18));
    await noticeKeyExpiry(again.ctx, session());
    expect(again.stderr()).toBe('');
    const nextDay = context(dir, new Date(2026, 2, 2, 9));
    await noticeKeyExpiry(nextDay.ctx, session());
    expect(nextDay.stderr()).toMatch(/expires in 8 days/);
    // Another profile keeps its own day.
    rememberKeyExpiry(dir, 'ci', { prefix: 'apk_CCCCcccc', expiresAt: '2026-03-10T00:00:00.000Z' });
    const other = context(dir, new Date(2026, 2, 1, 19));
    await noticeKeyExpiry(other.ctx, session('apk_CCCCcccc', 'ci'));
    expect(other.stderr()).toMatch(/apk_CCCCcccc… expires/);
  });

  it('stays quiet for a key far from expiry, a key without expiry, another key, or no cache', async () => {
    const dir = tempConfigDir();
    const now = new Date('2026-03-01T00:00:00Z');
    for (const [expiresAt, prefix] of [
      ['2026-06-01T00:00:00.000Z', PREFIX],
      [null, PREFIX],
      ['2026-03-05T00:00:00.000Z', 'apk_ZZZZzzzz'],
    ] as const) {
      rememberKeyExpiry(dir, 'default', { prefix, expiresAt });
      const run = context(dir, now);
      await noticeKeyExpiry(run.ctx, session());
      expect(run.stderr()).toBe('');
    }
    const empty = context(tempConfigDir(), now);
    await noticeKeyExpiry(empty.ctx, session());
    expect(empty.stderr()).toBe('');
  });

  it('a new key resets the day; the file is 0600, holds prefixes and dates only, and a broken file is ignored', async () => {
    const dir = tempConfigDir();
    rememberKeyExpiry(dir, 'default', { prefix: PREFIX, expiresAt: '2026-03-10T00:00:00.000Z' });
    const now = new Date(2026, 2, 1, 9);
    await noticeKeyExpiry(context(dir, now).ctx, session());
    rememberKeyExpiry(dir, 'default', { prefix: 'apk_BBBBbbbb', expiresAt: '2026-03-11T00:00:00.000Z' });
    const rotated = context(dir, now);
    await noticeKeyExpiry(rotated.ctx, session('apk_BBBBbbbb'));
    expect(rotated.stderr()).toMatch(/apk_BBBBbbbb… expires in/);
    const path = join(dir, EXPIRY_STATE_FILE);
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).not.toContain('apk_BBBBbbbb_');
    // Never anything but a documented prefix.
    rememberKeyExpiry(dir, 'x', { prefix: KEY_A, expiresAt: null });
    expect(readFileSync(path, 'utf8')).not.toContain(KEY_A);
    writeFileSync(path, '{not json');
    const broken = context(dir, now);
    await noticeKeyExpiry(broken.ctx, session());
    expect(broken.stderr()).toBe('');
  });

  it('warnKeyExpiry (auth status): always, once per process, and it counts as the day’s warning', async () => {
    const dir = tempConfigDir();
    const now = new Date(2026, 2, 1, 9);
    const run = context(dir, now);
    rememberKeyExpiry(dir, 'default', { prefix: PREFIX, expiresAt: '2026-03-10T00:00:00.000Z' });
    await noticeKeyExpiry(run.ctx, session());
    warnKeyExpiry(run.io, now, { prefix: PREFIX, expiresAt: '2026-03-10T00:00:00.000Z' }, { configDir: dir, profileName: 'default' });
    expect(run.stderr().match(/warning:/g)).toHaveLength(1);
    const status = context(dir, now);
    warnKeyExpiry(status.io, now, { prefix: PREFIX, expiresAt: '2026-03-10T00:00:00.000Z' }, { configDir: dir, profileName: 'default' });
    expect(status.stderr()).toMatch(/expires in/);
    const later = context(dir, now);
    await noticeKeyExpiry(later.ctx, session());
    expect(later.stderr()).toBe('');
    // Without a stored key (env), nothing is cached.
    const envDir = tempConfigDir();
    warnKeyExpiry(context(envDir, now).io, now, { prefix: PREFIX, expiresAt: '2026-03-10T00:00:00.000Z' });
    expect(existsSync(join(envDir, EXPIRY_STATE_FILE))).toBe(false);
  });
});
