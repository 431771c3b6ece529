import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../src/core/api-client.js';
import { NotFoundError, UsageError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { describeKey, findKey, parseKeyReference, withoutSecret } from '../../../../src/commands/keys/records.js';

const ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

function api(records: Array<Record<string, unknown>>): ApiClient {
  const client: Partial<ApiClient> = {
    get: async <T>(path: string) => ({ id: path.split('/').pop(), prefix: 'apk_AAAAaaaa', secret: 'apk_AAAAaaaa_leaked' }) as T,
    async *paginate() {
      yield* records as Array<{ id: string }>;
      return { count: records.length, total: records.length, duplicatesDropped: 0, warnings: [] };
    },
  };
  return client as ApiClient;
}

describe('key references', () => {
  it('a UUID is an id, apk_ + 8 characters a prefix', () => {
    expect(parseKeyReference(ID)).toEqual({ kind: 'id', id: ID });
    expect(parseKeyReference('apk_AbCd1234')).toEqual({ kind: 'prefix', prefix: 'apk_AbCd1234' });
  });

  it('refuses a whole key without echoing it', () => {
    const secret = 'apk_AbCd1234_0123456789abcdefghijABCDEFGHIJ';
    const error = (() => {
      try {
        parseKeyReference(secret);
      } catch (e) {
        return e as UsageError;
      }
    })()!;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('that is a whole key, not its prefix: pass only apk_AbCd1234');
    expect(`${error.message} ${error.hint}`).not.toContain(secret);
  });

  it('refuses anything else with exit 2', () => {
    for (const bad of ['', 'apk_short', 'abc', '12345']) expect(() => parseKeyReference(bad)).toThrow(UsageError);
  });
});

describe('findKey', () => {
  it('by id: the record, without a secret', async () => {
    expect(await findKey(api([]), { kind: 'id', id: ID })).toEqual({ id: ID, prefix: 'apk_AAAAaaaa' });
  });

  it('by prefix: exactly one match; none is exit 6; several is exit 2 naming their ids', async () => {
    const records = [
      { id: 'a', prefix: 'apk_AAAAaaaa', secret: 'x' },
      { id: 'b', prefix: 'apk_BBBBbbbb' },
      { id: 'c', prefix: 'apk_BBBBbbbb' },
    ];
    expect(await findKey(api(records), { kind: 'prefix', prefix: 'apk_AAAAaaaa' })).toEqual({ id: 'a', prefix: 'apk_AAAAaaaa' });
    const none = await findKey(api(records), { kind: 'prefix', prefix: 'apk_CCCCcccc' }).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(NotFoundError);
    expect(exitCodeFor(none)).toBe(6);
    await expect(findKey(api(records), { kind: 'prefix', prefix: 'apk_BBBBbbbb' })).rejects.toThrow(
      '2 keys have prefix apk_BBBBbbbb: b, c',
    );
  });

  it('withoutSecret and describeKey', () => {
    expect(withoutSecret({ id: '1', secret: 's', name: 'n' })).toEqual({ id: '1', name: 'n' });
    expect(describeKey({ id: '1', prefix: 'apk_AAAAaaaa', name: 'ci' })).toBe('apk_AAAAaaaa (ci)');
    expect(describeKey({ id: '1' })).toBe('id 1');
  });
});
