// API keys: records (never the secret) plus a sha256 of each secret, looked up by prefix.
import { randomUUID } from 'node:crypto';
import { Collection, type QueryResult } from '../state/collection.js';
import type { MonotonicClock } from '../state/clock.js';
import type { ApiKeyRecord } from '../state/records.js';
import { generateKeySecret, hashSecret, keyPrefixOf, secretMatches } from './key-secret.js';

export interface NewKey {
  name: string;
  scopes: string[];
  expiresAt?: string | null;
  createdBy: string;
  /** Use this secret instead of generating one (the --admin-key). */
  secret?: string;
  /** Extra fields sent by the client, kept on the record. */
  extra?: Record<string, unknown>;
}

export interface CreatedKey {
  record: ApiKeyRecord;
  secret: string;
}

export type KeyCheck =
  { ok: true; key: ApiKeyRecord } | { ok: false; code: 'API_KEY_INVALID' | 'API_KEY_EXPIRED' | 'API_KEY_REVOKED'; message: string };

export class KeyStore {
  private readonly keys = new Collection<ApiKeyRecord>();
  private readonly hashes = new Map<string, Buffer>();
  private readonly idByPrefix = new Map<string, string>();

  constructor(private readonly clock: MonotonicClock) {}

  create(input: NewKey): CreatedKey {
    let secret = input.secret ?? generateKeySecret();
    let prefix = keyPrefixOf(secret);
    if (!prefix) throw new Error('malformed key secret');
    if (this.idByPrefix.has(prefix)) {
      if (input.secret) throw new Error(`a key with prefix ${prefix} exists`);
      while (this.idByPrefix.has(prefix!)) {
        secret = generateKeySecret();
        prefix = keyPrefixOf(secret);
      }
    }
    const now = this.clock.nowIso();
    const record: ApiKeyRecord = {
      ...input.extra,
      id: randomUUID(),
      name: input.name,
      prefix: prefix!,
      scopes: [...input.scopes],
      expiresAt: input.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
      createdBy: input.createdBy,
      createdAt: now,
      updatedAt: now,
    };
    this.keys.insert(record);
    this.hashes.set(record.id, hashSecret(secret));
    this.idByPrefix.set(record.prefix, record.id);
    return { record, secret };
  }

  get(id: string): ApiKeyRecord | undefined {
    return this.keys.get(id);
  }

  list(offset: number, limit: number): QueryResult<ApiKeyRecord> {
    return this.keys.query([], offset, limit);
  }

  /** Revoke a key (idempotent). Undefined when there is no such key. */
  revoke(id: string): ApiKeyRecord | undefined {
    const key = this.keys.get(id);
    if (!key) return undefined;
    if (key.revokedAt) return key;
    const now = this.clock.nowIso();
    const revoked = { ...key, revokedAt: now, updatedAt: now };
    this.keys.replace(revoked);
    return revoked;
  }

  /** Test control: set a key's dates (old createdAt/lastUsedAt, past or near expiry). */
  setDates(id: string, dates: { createdAt?: string; lastUsedAt?: string | null; expiresAt?: string | null }): ApiKeyRecord | undefined {
    const key = this.keys.get(id);
    if (!key) return undefined;
    const changed = { ...key, ...dates };
    this.keys.replace(changed);
    return changed;
  }

  /** Check a well-formed or malformed secret. Records lastUsedAt on success. */
  check(secret: string, nowMs: number): KeyCheck {
    const prefix = keyPrefixOf(secret);
    if (!prefix) return { ok: false, code: 'API_KEY_INVALID', message: 'malformed API key (expected apk_<8 chars>_<32 chars>)' };
    const id = this.idByPrefix.get(prefix);
    const key = id === undefined ? undefined : this.keys.get(id);
    const hash = id === undefined ? undefined : this.hashes.get(id);
    if (!key || !hash || !secretMatches(secret, hash)) return { ok: false, code: 'API_KEY_INVALID', message: `unknown API key ${prefix}` };
    if (key.revokedAt) return { ok: false, code: 'API_KEY_REVOKED', message: `API key ${prefix} was revoked at ${key.revokedAt}` };
    if (key.expiresAt && Date.parse(key.expiresAt) <= nowMs) {
      return { ok: false, code: 'API_KEY_EXPIRED', message: `API key ${prefix} expired at ${key.expiresAt}` };
    }
    const used = { ...key, lastUsedAt: new Date(nowMs).toISOString() };
    this.keys.replace(used);
    return { ok: true, key: used };
  }
}
