// API key records as the keys commands see them, and finding one by id or by prefix. A record
// printed or logged never carries a secret: `withoutSecret` is applied to everything read back.
import type { ApiClient } from '../../core/api-client.js';
import { NotFoundError, UsageError } from '../../core/errors.js';
import { isUuid, quoteInput } from '../../core/ids.js';
import { keyPrefix } from '../../core/redact.js';
import type { KeyRecord } from '../../core/credentials/key-record.js';

export type { KeyRecord };

/** The answer to `POST /api/keys`: the record and, this once, the secret. */
export interface CreatedKeyRecord extends KeyRecord {
  secret: string;
}

export const KEYS_PATH = '/api/keys';
export const CURRENT_KEY_PATH = '/api/keys/current';
export const KEY_PATH_TEMPLATE = '/api/keys/{id}';

export function keyPath(id: string): string {
  return `${KEYS_PATH}/${encodeURIComponent(id)}`;
}

const PREFIX = /^apk_[A-Za-z0-9]{8}$/;
const FULL_KEY = /^apk_[A-Za-z0-9]{8}_/;

export function isKeyPrefix(value: string): boolean {
  return PREFIX.test(value);
}

/** A copy without `secret`: list and get never print one, even if a service sent it. */
export function withoutSecret<T extends Record<string, unknown>>(record: T): Omit<T, 'secret'> {
  if (!Object.hasOwn(record, 'secret')) return record;
  const { secret: _secret, ...rest } = record;
  return rest;
}

/** `apk_xxxxxxxx (name)` for messages. */
export function describeKey(record: Pick<KeyRecord, 'prefix' | 'name' | 'id'>): string {
  const prefix = typeof record.prefix === 'string' && record.prefix !== '' ? record.prefix : `id ${record.id}`;
  return typeof record.name === 'string' && record.name !== '' ? `${prefix} (${record.name})` : prefix;
}

/** What the user typed to name a key: a UUID or a prefix. A full key is refused and never echoed. */
export type KeyReference = { kind: 'id'; id: string } | { kind: 'prefix'; prefix: string };

export function parseKeyReference(value: string | undefined): KeyReference {
  if (value === undefined || value.trim() === '') throw new UsageError('name the key by its id (UUID) or its prefix (apk_xxxxxxxx)');
  const text = value.trim();
  if (isUuid(text)) return { kind: 'id', id: text };
  if (isKeyPrefix(text)) return { kind: 'prefix', prefix: text };
  if (FULL_KEY.test(text)) {
    throw new UsageError(`that is a whole key, not its prefix: pass only ${keyPrefix(text)}`, {
      hint: 'a key on the command line ends up in shell history and process lists; if it was exposed, revoke it now',
    });
  }
  throw new UsageError(`expected a key id (UUID) or a key prefix (apk_ and 8 letters or digits), got ${quoteInput(text)}`);
}

/**
 * The key a reference names. A prefix is looked up in `GET /api/keys` and must match exactly one
 * record: none is exit 6 (as a 404 would be), several is exit 2 listing their ids.
 */
export async function findKey(api: ApiClient, reference: KeyReference, signal?: AbortSignal): Promise<KeyRecord> {
  if (reference.kind === 'id') return withoutSecret(await api.get<KeyRecord>(keyPath(reference.id))) as KeyRecord;
  const matches: KeyRecord[] = [];
  for await (const record of api.paginate(KEYS_PATH, { signal })) {
    if (record.prefix === reference.prefix) matches.push(withoutSecret(record) as KeyRecord);
  }
  if (matches.length === 0) {
    throw new NotFoundError(`no API key with prefix ${reference.prefix}`, {
      status: 404,
      method: 'GET',
      path: KEYS_PATH,
      hint: '`appraisal keys list` shows the keys of the organization',
    });
  }
  if (matches.length > 1) {
    throw new UsageError(`${matches.length} keys have prefix ${reference.prefix}: ${matches.map((key) => key.id).join(', ')}`, {
      hint: 'name the key by its id instead',
    });
  }
  return matches[0]!;
}

/** Every key of the organization (admin only), secrets stripped. */
export async function allKeys(api: ApiClient, signal?: AbortSignal): Promise<KeyRecord[]> {
  const keys: KeyRecord[] = [];
  for await (const record of api.paginate(KEYS_PATH, { signal })) keys.push(withoutSecret(record) as KeyRecord);
  return keys;
}
