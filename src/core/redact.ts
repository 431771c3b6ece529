// The one place that redacts. Every line the CLI writes to stderr passes through here, and so do the
// response headers `api -i` prints. Three layers:
//   1. every secret the process knows (registered) is found in its common disguises — URL- or
//      percent-encoded, split by whitespace, line breaks or zero-width characters, base64 — and
//      replaced by its prefix;
//   2. keys in the documented format that the process does not know are cut to their prefix;
//   3. the value of any Authorization / Proxy-Authorization / X-Api-Key header and any
//      `Bearer …`/`Basic …` credential is replaced, whoever's it is.
import escapeStringRegexp from 'escape-string-regexp';

/** A documented key, also when the service echoes it URL-encoded (`apk%5F…`). */
const KEY_PATTERN = /\b(apk(?:_|%5[Ff])[A-Za-z0-9]{8})(?:_|%5[Ff])[A-Za-z0-9]{8,}/g;
/** `name: value` / `name=value` for the headers that carry credentials. */
const CREDENTIAL_FIELD = /\b((?:proxy-)?authorization|x-api-key)(["']?\s*[:=]\s*["']?)([^\r\n"',;]+)/gi;
/** `$NAME` or `${NAME}`, alone: a reference to a variable, not a value. */
const SHELL_VARIABLE = /^\$(?:[A-Z_][A-Z0-9_]*|\{[A-Z_][A-Z0-9_]*\})$/;
/** A scheme followed by something shaped like a credential (long enough, not a plain word). */
const SCHEME_CREDENTIAL = /\b(Bearer|Basic)\s+(?=[A-Za-z0-9._~+/=-]{8,})(?=[A-Za-z0-9]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]+/gi;
/** What may sit between the characters of a secret a service split up: whitespace and invisible characters. */
const SPLIT = '[\\s\\u00ad\\u180e\\u200b-\\u200f\\u2060-\\u2064\\ufeff]*';
/** Below this length a secret is matched only as a whole word: "abc" inside "fabcd" is not a secret. */
const SHORT = 8;

/** Headers whose value is a credential or a session: never printed, not even in part. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
]);

/** One character: itself, or its UTF-8 bytes percent-encoded in either case. */
function charPattern(char: string): string {
  const encoded = [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return `(?:${escapeStringRegexp(char)}|${encoded.replace(/[a-f]/g, (hex) => `[${hex}${hex.toUpperCase()}]`)})`;
}

function secretPattern(secret: string): RegExp {
  const chars = [...secret];
  if (chars.length < SHORT) {
    const body = chars.map(charPattern).join('');
    return new RegExp(`(?<![A-Za-z0-9_])${body}(?![A-Za-z0-9_])`, 'g');
  }
  const disguised = chars.map(charPattern).join(SPLIT);
  const base64 = Buffer.from(secret, 'utf8').toString('base64').replace(/=+$/, '');
  const base64url = Buffer.from(secret, 'utf8').toString('base64url');
  return new RegExp(`${disguised}|${escapeStringRegexp(base64)}=*|${escapeStringRegexp(base64url)}`, 'g');
}

/** The shown part of a credential value: the documented key prefix, or nothing. */
function shownPart(value: string): string {
  const match = /^(apk(?:_|%5[Ff])[A-Za-z0-9]{8})/.exec(value.trim());
  return match?.[1] ? `${match[1]}…` : '…';
}

export class SecretRedactor {
  private readonly secrets = new Map<string, RegExp>();

  register(secret: string | undefined): void {
    // A one- or two-letter secret cannot be told apart from ordinary text; it is still never shown
    // whole as a prefix (keyPrefix shows nothing of it).
    if (!secret || secret.length < 3 || this.secrets.has(secret)) return;
    this.secrets.set(secret, secretPattern(secret));
  }

  redact(text: string): string {
    let out = text;
    for (const [secret, pattern] of this.secrets) out = out.replace(pattern, `${keyPrefix(secret)}…`);
    return out
      .replace(KEY_PATTERN, '$1_…')
      .replace(CREDENTIAL_FIELD, (_match, name: string, separator: string, value: string) => {
        const scheme = /^(Bearer|Basic|Token|Digest)\s+/i.exec(value);
        const rest = scheme ? value.slice(scheme[0].length) : value;
        if (rest.endsWith('…') && rest.length <= 16) return `${name}${separator}${value}`;
        // A shell variable reference (smoke's reproducing curl: "x-api-key: $APPRAISAL_API_KEY")
        // says where a key is kept, not what it is.
        if (SHELL_VARIABLE.test(rest)) return `${name}${separator}${value}`;
        return `${name}${separator}${scheme ? scheme[0] : ''}${shownPart(rest)}`;
      })
      .replace(SCHEME_CREDENTIAL, (match, scheme: string) => `${scheme} ${shownPart(match.slice(scheme.length))}`);
  }

  /** A response header's value as `api -i` may print it. */
  redactHeader(name: string, value: string): string {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) return '[redacted]';
    return this.redact(value);
  }
}

/**
 * The part of a key that may be shown or recorded: `apk_xxxxxxxx` for documented keys. For any
 * other secret so little that it identifies nothing and never the whole: 4 characters of a long
 * token, 2 of a medium one, none of a short one (`APPRAISAL_TOKEN=abc`).
 */
/** Whether a shown prefix is a documented key's (`apk_` and 8 characters). */
export function isUsualKeyPrefix(prefix: string): boolean {
  return /^apk_[A-Za-z0-9]{8}$/.test(prefix);
}

/**
 * A key named in a sentence by what may be shown of it: `key apk_ab12cd34`; a key too short to
 * show any of it is just `key` (never `key ` with nothing after it).
 */
export function namedKey(prefix: string, noun = 'key'): string {
  return prefix === '' ? noun : `${noun} ${prefix}`;
}

export function keyPrefix(secret: string): string {
  const match = /^(apk_[A-Za-z0-9]{8})_/.exec(secret);
  if (match?.[1]) return match[1];
  if (secret.length >= 16) return secret.slice(0, 4);
  if (secret.length >= SHORT) return secret.slice(0, 2);
  return '';
}
