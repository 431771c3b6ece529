// `appraisal api` input, checked before any request: METHOD, PATH (with its own query), -H headers
// and -f/-F fields that become the query string of a GET. Pure functions, so tests need no service.
import type { HttpMethod, Query } from '../../core/api-client.js';
import { UsageError } from '../../core/errors.js';

export const API_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function parseMethod(raw: string): HttpMethod {
  const method = raw.trim().toUpperCase() as HttpMethod;
  if (!API_METHODS.includes(method)) {
    throw new UsageError(`unknown method "${raw}"`, { hint: `use one of ${API_METHODS.join(', ')}` });
  }
  return method;
}

export interface ParsedTarget {
  /** Path without the query string, starting with `/`. */
  path: string;
  /** Parameters given in PATH's own `?query` (repeated names become lists). */
  query: Record<string, string | string[]>;
}

/** Query parameter names that carry credentials in some APIs: refused here as in the HTTP client. */
const CREDENTIAL_PARAMS = new Set([
  'api_key',
  'apikey',
  'api-key',
  'key',
  'x-api-key',
  'token',
  'access_token',
  'auth',
  'authorization',
  'secret',
]);
const KEY_LIKE = /apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{4,}/;
const NO_KEY_HINT = 'the CLI sends the key in the x-api-key header itself; never put one in a URL or a header by hand';

function addParam(query: Record<string, string | string[]>, name: string, value: string): void {
  const existing = query[name];
  if (existing === undefined) query[name] = value;
  else query[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

function assertNoCredentialParam(name: string, value: string): void {
  if (CREDENTIAL_PARAMS.has(name.toLowerCase())) {
    throw new UsageError(`refusing to send a credential in the URL (query parameter "${name}")`, { hint: NO_KEY_HINT });
  }
  if (KEY_LIKE.test(value) || KEY_LIKE.test(name)) {
    throw new UsageError('refusing to send an API key in the URL', { hint: NO_KEY_HINT });
  }
}

/** PATH as given: `/api/...` or `api/...`, optionally with `?query`. Never a full URL. */
export function parseTarget(raw: string): ParsedTarget {
  let text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new UsageError(`PATH must be a path such as /api/properties, not a URL: "${text.replace(/\?.*$/, '?…')}"`, {
      hint: 'the base URL comes from the profile, --base-url or APPRAISAL_BASE_URL',
    });
  }
  if (text.startsWith('api/') || text === 'api') text = `/${text}`;
  if (!text.startsWith('/')) {
    throw new UsageError(`PATH must start with / (e.g. /api/properties), got "${text.slice(0, 80)}"`);
  }
  if (text.startsWith('//')) throw new UsageError(`PATH must not start with //: "${text.slice(0, 80)}"`);
  if (text.includes('#')) throw new UsageError('PATH must not contain a fragment (#…)');
  if (/\s/.test(text)) throw new UsageError('PATH must not contain white space; encode it as %20');
  const queryAt = text.indexOf('?');
  const path = queryAt === -1 ? text : text.slice(0, queryAt);
  if (KEY_LIKE.test(path)) throw new UsageError('refusing to send an API key in the URL', { hint: NO_KEY_HINT });
  const query: Record<string, string | string[]> = {};
  if (queryAt !== -1) {
    for (const [name, value] of new URLSearchParams(text.slice(queryAt + 1))) {
      assertNoCredentialParam(name, value);
      addParam(query, name, value);
    }
  }
  return { path, query };
}

/** Headers a person may not set: the client owns the credential and the framing. */
const CREDENTIAL_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);
const MANAGED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te', 'keep-alive']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `-H 'name: value'`, repeatable. Header names are case-insensitive, so they are kept lower-case. */
export function parseHeaders(raw: readonly string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of raw ?? []) {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new UsageError(`-H needs "name: value", got "${entry.slice(0, 40)}"`);
    const name = entry.slice(0, colon).trim().toLowerCase();
    const value = entry.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name)) throw new UsageError(`-H: invalid header name "${name.slice(0, 40)}"`);
    if (/[\r\n]/.test(value)) throw new UsageError(`-H ${name}: the value must not contain line breaks`);
    const control = /[\u0000-\u0008\u000a-\u001f\u007f]/.exec(value);
    if (control) {
      throw new UsageError(
        `-H ${name}: the value holds a control character (U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
        {
          hint: 'header values are printable text; remove the character (a tab is allowed)',
        },
      );
    }
    const nonAscii = /[^\u0000-\u007f]/u.exec(value);
    if (nonAscii) {
      throw new UsageError(`-H ${name}: the value holds "${nonAscii[0]}", which an HTTP header cannot carry (ASCII only)`, {
        hint: 'percent-encode the value (e.g. caf%C3%A9) or send the text in the body with --data',
      });
    }
    if (CREDENTIAL_HEADERS.has(name)) {
      throw new UsageError(`refusing to set the ${name} header by hand: the CLI sends the credential itself`, {
        hint: 'choose the credential with --profile, --api-key-file or APPRAISAL_API_KEY',
      });
    }
    if (MANAGED_HEADERS.has(name)) throw new UsageError(`the ${name} header is set by the HTTP client and cannot be given with -H`);
    if (KEY_LIKE.test(value)) throw new UsageError(`refusing to send an API key in the header "${name}"`, { hint: NO_KEY_HINT });
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/** A JSON value as a query string value: strings as they are, everything else as JSON. */
function queryText(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => queryText(item));
  if (typeof value === 'string') return [value];
  if (value === null) return [''];
  return [typeof value === 'object' ? JSON.stringify(value) : String(value)];
}

/** -f/-F on a GET or HEAD: query parameters (as `gh api` does). -F values are read as JSON; lists repeat the name. */
export function fieldsAsQuery(
  base: Record<string, string | string[]>,
  fields: readonly string[] | undefined,
  typedFields: readonly string[] | undefined,
): Query {
  const query: Record<string, string | string[]> = { ...base };
  const add = (entry: string, typed: boolean) => {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`${typed ? '-F' : '-f'} needs key=value, got "${entry.slice(0, 40)}"`);
    const name = entry.slice(0, eq);
    const rawValue = entry.slice(eq + 1);
    let values: string[];
    if (typed) {
      let parsed: unknown = rawValue;
      try {
        parsed = JSON.parse(rawValue);
      } catch {
        // As for a record: a value that is not JSON is kept as the string it is.
      }
      values = queryText(parsed);
    } else {
      values = [rawValue];
    }
    for (const value of values) {
      assertNoCredentialParam(name, value);
      addParam(query, name, value);
    }
  };
  for (const entry of fields ?? []) add(entry, false);
  for (const entry of typedFields ?? []) add(entry, true);
  return query;
}
