// Standard Webhooks (https://www.standardwebhooks.com): what identifies an event and what proves it
// came from us. The id is derived from the change itself, so the same change gets the same id on
// every retry, after a restart, and when a poll that was cut short finds it again: the receiver's
// deduplication key holds across everything the watch can go through.
import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** What makes one change one event: the watch, the record, what happened, to which version, in which poll. */
export interface ChangeIdentity {
  family: string;
  scope: string | null;
  id: string;
  type: string;
  /** The version the event is about: the new one, or for a deletion the last one seen. */
  version: string;
  /** The poll that found it (a record whose versions are content hashes can come back to an old one). */
  poll: number;
}

export function webhookId(change: ChangeIdentity): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([change.family, change.scope, change.id, change.type, change.version, change.poll]))
    .digest('hex');
  return `msg_${digest.slice(0, 32)}`;
}

/** A secret's key: its bytes, or (imported once, for every event of a run) a KeyObject. */
export type SigningKey = Buffer | KeyObject;

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per key, space-separated. */
export function signatureHeader(keys: readonly SigningKey[], id: string, timestamp: number, body: string): string {
  // Two updates: the body is not copied into a new string first.
  const prefix = `${id}.${timestamp}.`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(prefix).update(body).digest('base64')}`).join(' ');
}

/** The headers of one attempt: `timestampMs` is the attempt's time. */
export function webhookHeaders(keys: readonly SigningKey[], id: string, timestampMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(timestampMs / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(keys, id, timestamp, body),
  };
}

/**
 * Signs attempts with keys imported once. The event most likely to go next can be signed ahead, while
 * a request is in flight and the receiver is busy; its attempt takes those headers if it starts within
 * the same second (the timestamp is in seconds: they are then exactly the headers it would get).
 */
export class Signer {
  private readonly keys: readonly KeyObject[];
  private ahead: { id: string; timestamp: number; headers: Record<string, string> } | undefined;

  constructor(keys: readonly Buffer[]) {
    this.keys = keys.map((key) => createSecretKey(key));
  }

  /** The headers of an attempt starting at `timestampMs`. */
  headers(id: string, timestampMs: number, body: string): Record<string, string> {
    const ahead = this.ahead;
    this.ahead = undefined;
    if (ahead?.id === id && ahead.timestamp === Math.floor(timestampMs / 1000)) return ahead.headers;
    return webhookHeaders(this.keys, id, timestampMs, body);
  }

  /** Sign ahead an event expected to start soon. */
  prepare(id: string, timestampMs: number, body: string): void {
    const timestamp = Math.floor(timestampMs / 1000);
    if (this.ahead?.id === id && this.ahead.timestamp === timestamp) return;
    this.ahead = { id, timestamp, headers: webhookHeaders(this.keys, id, timestampMs, body) };
  }
}
