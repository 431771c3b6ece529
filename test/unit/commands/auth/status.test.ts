import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../src/core/api-client.js';
import type { Context } from '../../../../src/core/context.js';
import { AuthenticationError, MissingCredentialError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { runStatus } from '../../../../src/commands/auth/status.js';
import { contextWithConfig, KEY_ENV } from '../../core/credentials/fakes.js';

const now = new Date('2026-03-01T12:00:00.000Z');
let answer: () => unknown;

function withApi(ctx: Context): Context {
  const client: Partial<ApiClient> = {
    async get<T>(): Promise<T> {
      return answer() as T;
    },
  };
  return { ...ctx, api: async () => client as ApiClient };
}

beforeEach(() => {
  answer = () => ({ id: 'k1', name: 'ci', prefix: 'apk_EEEEeeee', scopes: ['api:read'], expiresAt: '2026-03-04T12:00:00.000Z' });
});

describe('auth status', () => {
  it('prints profile, base URL, environment, source, prefix, name, scopes and expiry; warns within 14 days', async () => {
    const { ctx, stdout, stderr } = contextWithConfig({
      now,
      env: { APPRAISAL_API_KEY: KEY_ENV },
      globals: { baseUrl: 'https://localhost:4000' },
    });
    await runStatus(withApi(ctx));
    expect(JSON.parse(stdout())).toEqual({
      profile: 'default',
      baseUrl: 'https://localhost:4000',
      environment: 'local',
      source: 'env',
      keyPrefix: 'apk_EEEEeeee',
      keyId: 'k1',
      keyName: 'ci',
      scopes: ['api:read'],
      expiresAt: '2026-03-04T12:00:00.000Z',
      pendingRevocations: [],
    });
    // A key without keys:admin or api:admin cannot rotate itself: the warning says who can.
    expect(stderr()).toBe(
      'warning: key apk_EEEEeeee… expires in 3 days (2026-03-04T12:00:00.000Z); this key cannot rotate itself (scopes api:read, no keys:admin or api:admin): someone with such a key can replace it with appraisal keys create --name NAME --scope api:read\n',
    );
    expect(stdout() + stderr()).not.toContain(KEY_ENV);
  });

  it('exits 4 for a key the service refuses, and for no credential at all', async () => {
    answer = () => {
      throw new AuthenticationError('GET /api/keys/current: 401', { status: 401, method: 'GET', path: '/api/keys/current' });
    };
    const revoked = contextWithConfig({ env: { APPRAISAL_API_KEY: KEY_ENV }, globals: { baseUrl: 'https://localhost:4000' } });
    expect(exitCodeFor(await runStatus(withApi(revoked.ctx)).catch((e: unknown) => e))).toBe(4);

    const none = contextWithConfig({ globals: { baseUrl: 'https://localhost:4000' } });
    const error = await runStatus(withApi(none.ctx)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(exitCodeFor(error)).toBe(4);
    expect((error as MissingCredentialError).hint).toMatch(/auth login --profile default.*APPRAISAL_API_KEY/);
  });
});
