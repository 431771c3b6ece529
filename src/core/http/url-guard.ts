// Where a request may go and what it may carry. A key travels only in its header, only over TLS
// (or to this machine), and never in a URL, where proxies, logs and shell history would keep it.
import type { Query } from '../api-client.js';
import { SafetyError, UsageError } from '../errors.js';
import { isLoopbackHost } from '../loopback.js';

/** Query parameter names that carry credentials in other APIs; refused whatever their value. */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['api_key', 'apikey', 'key', 'x-api-key', 'token', 'access_token']);

/** Headers the client owns: a caller cannot add or replace them. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);

/** Anything shaped like a key of the documented format, wherever it appears. */
const KEY_LIKE = /apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{4,}/;

const NO_KEY_IN_URL_HINT = 'a key is sent only in the x-api-key header, which the CLI does for you; never put one in a URL';

/** Parse and check the base URL once: http(s) only, no user info, no query or fragment. */
export function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`the base URL "${raw}" is not a valid URL`, { hint: 'use e.g. https://localhost:4000' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`the base URL must start with https:// (or http:// for this machine), got "${url.protocol}"`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('the base URL must not contain a user name or password', { hint: NO_KEY_IN_URL_HINT });
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError('the base URL must not contain a query or fragment');
  }
  return url;
}

/** Base URL + path (which may carry its own `?query`) + query parameters, on the base's origin. */
export function buildUrl(base: URL, path: string, query?: Query): URL {
  if (!path.startsWith('/')) throw new UsageError(`the request path must start with /, got "${path}"`);
  if (path.includes('#')) throw new UsageError(`the request path must not contain a fragment: "${path}"`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${base.origin}${prefix}${path}`);
  if (url.origin !== base.origin) throw new UsageError(`the request path "${path}" leaves the base URL's origin`);
  refuseClimbingOut(url, prefix, path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
    else url.searchParams.append(name, String(value));
  }
  return url;
}

/**
 * The URL parser resolves `.`/`..` segments, `%2e` spelled dots included, so `/api/%2E%2e/%2e%2e/x`
 * under `https://host/s/ok` becomes `/s/x`: a request (with the key) outside the service the base URL
 * names. What is left encoded (`..%2f`) a server may decode and resolve itself. Both are refused.
 */
function refuseClimbingOut(url: URL, prefix: string, path: string): void {
  const inside = url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
  const hidden = url.pathname.split('/').some((segment) => /(^|[/\\])\.\.([/\\]|$)/.test(decodeFully(segment)));
  if (inside && !hidden) return;
  throw new UsageError(
    `the request path "${path}" climbs out of the base URL's path ${prefix === '' ? '/' : prefix} (it resolves to ${url.pathname})`,
    {
      hint: 'give a path under the base URL, without ".." segments (encoded or not)',
    },
  );
}

/** Percent-decode until nothing changes (a double-encoded `%252e` is a dot too, to some servers). */
function decodeFully(text: string): string {
  let current = text;
  for (let i = 0; i < 5; i++) {
    const next = safeDecode(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Refuse a URL that carries a credential: a credential-named parameter, a key-shaped value, or the secret. */
export function assertNoCredentialInUrl(url: URL, secret: string | undefined): void {
  for (const name of url.searchParams.keys()) {
    if (CREDENTIAL_PARAMS.has(name.toLowerCase())) {
      throw new UsageError(`refusing to send a credential in the URL (query parameter "${name}")`, {
        hint: NO_KEY_IN_URL_HINT,
      });
    }
  }
  const texts = [url.pathname, safeDecode(url.pathname), ...url.searchParams.values(), url.search];
  if (texts.some((text) => KEY_LIKE.test(text) || (secret !== undefined && secret.length > 0 && text.includes(secret)))) {
    throw new UsageError('refusing to send a request whose URL contains an API key', { hint: NO_KEY_IN_URL_HINT });
  }
}

/** Refuse extra headers that would carry or replace a credential. */
export function assertNoCredentialHeaders(headers: Readonly<Record<string, string>>, secret: string | undefined): void {
  for (const [name, value] of Object.entries(headers)) {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      throw new UsageError(`the header "${name}" cannot be set by hand: the client sends the credential itself`);
    }
    if (KEY_LIKE.test(value) || (secret !== undefined && secret.length > 0 && value.includes(secret))) {
      throw new UsageError(`refusing to send an API key in the header "${name}"`, { hint: NO_KEY_IN_URL_HINT });
    }
  }
}

/** A credential goes over plain http:// only to this machine. */
export function assertSafeTransport(url: URL): void {
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new SafetyError(`refusing to send the credential over plain http:// to ${url.host}`, {
      hint: 'use an https:// base URL; plain http is accepted only for this machine (localhost, 127.0.0.1, ::1)',
    });
  }
}
