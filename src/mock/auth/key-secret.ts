// API key secrets: `apk_<8 base62>_<32 base62>`; the prefix `apk_<8>` may be shown and recorded,
// the rest never. The mock keeps only a sha256 of each secret.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_SECRET_PATTERN = /^(apk_[A-Za-z0-9]{8})_[A-Za-z0-9]{32}$/;

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: reject the top bytes so every character is equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateKeySecret(): string {
  return `apk_${base62(8)}_${base62(32)}`;
}

/** The prefix of a well-formed secret, or undefined when the secret is malformed. */
export function keyPrefixOf(secret: string): string | undefined {
  return KEY_SECRET_PATTERN.exec(secret)?.[1];
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function secretMatches(secret: string, hash: Buffer): boolean {
  const candidate = hashSecret(secret);
  return candidate.length === hash.length && timingSafeEqual(candidate, hash);
}
