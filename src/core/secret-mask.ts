// Masks a secret in a byte stream a child writes (`keys lease` passes the child's stdout and stderr
// through with the leased key masked). Unlike the line redactor (redact.ts) it keeps every other
// byte as it is and holds nothing back but the tail of a chunk that could be the start of the
// secret, so a secret split across two chunks is still masked whole, and a prompt without a newline
// still shows at once.
import { Transform, type TransformCallback } from 'node:stream';

/** Forms of a secret found in a stream: as written, and percent-encoded (`apk%5F…`) as URLs carry it. */
export function maskedForms(secret: string): Buffer[] {
  const forms = new Set([secret, secret.replaceAll('_', '%5F'), secret.replaceAll('_', '%5f')]);
  return [...forms].filter((form) => form.length > 0).map((form) => Buffer.from(form, 'utf8'));
}

/** The length of the longest end of `buffer` that is the start of one of `patterns` (never a whole one). */
function partialTail(buffer: Buffer, patterns: readonly Buffer[]): number {
  let longest = 0;
  for (const pattern of patterns) {
    const most = Math.min(pattern.length - 1, buffer.length);
    for (let size = most; size > longest; size--) {
      if (buffer.subarray(buffer.length - size).equals(pattern.subarray(0, size))) {
        longest = size;
        break;
      }
    }
  }
  return longest;
}

/** Every occurrence of a pattern replaced by `replacement`. */
function replaceAll(buffer: Buffer, patterns: readonly Buffer[], replacement: Buffer): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  let at = 0;
  while (at < buffer.length) {
    const hit = patterns.find((pattern) => buffer[at] === pattern[0] && buffer.subarray(at, at + pattern.length).equals(pattern));
    if (hit) {
      parts.push(buffer.subarray(start, at), replacement);
      at += hit.length;
      start = at;
    } else {
      at++;
    }
  }
  if (start === 0) return buffer;
  parts.push(buffer.subarray(start));
  return Buffer.concat(parts);
}

/** A stream that passes bytes through with `secret` (in its forms) replaced by `replacement`. */
export function secretMask(secret: string, replacement: string): Transform {
  const patterns = maskedForms(secret);
  const shown = Buffer.from(replacement, 'utf8');
  let held = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      const buffer = replaceAll(held.length === 0 ? chunk : Buffer.concat([held, chunk]), patterns, shown);
      const keep = partialTail(buffer, patterns);
      held = Buffer.from(buffer.subarray(buffer.length - keep));
      done(null, buffer.subarray(0, buffer.length - keep));
    },
    flush(done: TransformCallback) {
      // The child ended in the middle of what could have been the secret: it was not, show it.
      done(null, held);
    },
  });
}
