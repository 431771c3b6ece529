import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../src/core/errors.js';
import { confirmDestructive, isProductionLike, productionBanner } from '../../../src/core/guards.js';
import { contextWithConfig, KEY_ENV } from './credentials/fakes.js';

const target = (environment: string | undefined) => ({
  profileName: 'prod',
  environment,
  baseUrl: 'https://api.example.com',
  keyPrefix: 'apk_AAAAaaaa',
});

describe('guards', () => {
  it('treats production and anything unknown as production', () => {
    expect(isProductionLike('production')).toBe(true);
    expect(isProductionLike('qa')).toBe(true);
    expect(isProductionLike(undefined)).toBe(true);
    for (const env of ['staging', 'development', 'local']) expect(isProductionLike(env)).toBe(false);
    expect(productionBanner(target('production'))).toBe('!! PRODUCTION: profile prod at https://api.example.com, key apk_AAAAaaaa…');
    expect(productionBanner(target('qa'))).toMatch(/treated as production/);
  });

  it('needs --yes without a terminal, and prints the banner on production', async () => {
    const noYes = contextWithConfig();
    await expect(confirmDestructive(noYes.ctx, 'delete property 1', target('production'))).rejects.toThrow(
      'delete property 1: confirmation needed; pass --yes to confirm without a prompt',
    );
    expect(noYes.stderr()).toMatch(/^!! PRODUCTION: profile prod/);

    const yes = contextWithConfig({ globals: { yes: true, quiet: true } });
    await confirmDestructive(yes.ctx, 'delete property 1', target('production'));
    expect(yes.stderr()).toMatch(/PRODUCTION/);

    const staging = contextWithConfig({ globals: { yes: true } });
    await confirmDestructive(staging.ctx, 'delete property 1', target('staging'));
    expect(staging.stderr()).toBe('');
  });

  it('asks on a terminal; a no changes nothing', async () => {
    const declined = contextWithConfig({ tty: true, answers: ['n'] });
    await expect(confirmDestructive(declined.ctx, 'x', target('local'))).rejects.toThrow(
      new CancelledError('cancelled; nothing was changed'),
    );
    const accepted = contextWithConfig({ tty: true, answers: ['y'] });
    await confirmDestructive(accepted.ctx, 'x', target('local'));
    const noInput = contextWithConfig({ tty: true, globals: { noInput: true } });
    await expect(confirmDestructive(noInput.ctx, 'x', target('local'))).rejects.toThrow(/pass --yes/);
  });

  it('defaults to the session: profile, environment and key prefix', async () => {
    const { ctx, stderr } = contextWithConfig({
      env: { APPRAISAL_API_KEY: KEY_ENV },
      globals: { baseUrl: 'https://api.example.com', yes: true },
    });
    await confirmDestructive(ctx, 'delete property 1');
    expect(stderr()).toBe('!! PRODUCTION: profile default at https://api.example.com, key apk_EEEEeeee…\n');
  });
});
