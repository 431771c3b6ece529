// Base URLs and origins. A stored key is bound to the origin (scheme://host:port) it was stored for,
// and loopback hosts default to the `local` environment; both rules start here.
import { UsageError } from '../errors.js';
import type { Environment } from '../config.js';
import { isLoopbackHost } from '../loopback.js';

/**
 * Parse and normalize a base URL given by the user: http(s) only, no credentials in it, no query or
 * fragment, no trailing slash. Throws UsageError (exit 2) otherwise.
 */
export function normalizeBaseUrl(raw: string, source = '--base-url'): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source} is not a valid URL: "${text}"`, { hint: 'use a full URL, e.g. https://api.example.com' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source} must be an http or https URL, got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    // Never echo the URL: the user part may be a secret.
    throw new UsageError(`${source} must not contain a user name or password`, {
      hint: 'keys are never put in a URL; use `appraisal auth login` or APPRAISAL_API_KEY',
    });
  }
  if (url.search || url.hash) {
    throw new UsageError(`${source} must not contain a query string or fragment`, {
      hint: 'keys are never put in a URL (?api_key= is refused); give only scheme, host, port and path',
    });
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/api$/i.test(path)) {
    // Every operation path starts with /api/ already: this base URL would request /api/api/….
    throw new UsageError(`${source} ends in /api, but every request adds /api/… itself (it would ask for ${path}/api/…)`, {
      hint: `drop the /api: ${url.protocol}//${url.host}${path.slice(0, -4)}`,
    });
  }
  return `${url.protocol}//${url.host}${path}`;
}

/** `scheme://host:port` with the default port made explicit, so `https://a` and `https://a:443` match. */
export function originOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  return `${url.protocol}//${url.hostname.toLowerCase()}${port ? `:${port}` : ''}`;
}

/** Shown to people: the origin without a default port. */
export function displayOrigin(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** Loopback hosts are `local`; anything else is `production` until the user says otherwise. */
export function defaultEnvironmentFor(baseUrl: string): Environment {
  return isLoopbackHost(new URL(baseUrl).hostname) ? 'local' : 'production';
}
