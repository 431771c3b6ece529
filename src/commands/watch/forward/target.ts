// Where --forward-to may point: https://, or http:// to this machine only (core/loopback.ts: the same
// rule that lets the API key travel in clear text), so events (records of the organisation) never
// cross a network unencrypted. No user name or password in it; messages show little of the rest.
import { UsageError } from '../../../core/errors.js';
import { isLoopbackHost } from '../../../core/loopback.js';

export function parseForwardTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--forward-to "${raw.slice(0, 80)}" is not a URL`, {
      hint: 'e.g. --forward-to https://hooks.example.com/appraisal',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // `localhost:18080/hook` parses, its host taken for a scheme: the form is what helps. The rest of
    // what was given is not repeated (its path may hold a token).
    throw new UsageError(`--forward-to must be an https:// URL, got "${url.protocol}"`, {
      hint: 'give the whole URL, scheme first: https://HOST/PATH, or http://HOST/PATH when HOST is this machine (localhost, 127.0.0.1, [::1])',
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`--forward-to must use https:// for ${url.hostname}: plain http:// is allowed only to this machine`, {
      hint: 'use the https:// URL of the receiver, or a loopback address (localhost, 127.0.0.1, [::1])',
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--forward-to must not contain a user name or password (the URL is shown in messages)', {
      hint: 'requests are signed (webhook-signature): the receiver verifies them with the shared secret',
    });
  }
  url.hash = '';
  return url;
}

/**
 * The URL as messages show it: its origin and the first segment of its path, no more. A catch hook
 * (Zapier, Make, n8n, Slack, Discord) is a capability URL, its token in the rest of the path or in
 * the query, and messages end up in logs: `https://hooks.zapier.com/hooks/…`.
 */
export function shownTarget(url: URL): string {
  const [first, ...rest] = url.pathname.split('/').filter((segment) => segment !== '');
  return `${url.origin}${first === undefined ? '' : `/${first}`}${rest.length > 0 || url.search !== '' ? '/…' : ''}`;
}

/**
 * A transport failure's words as messages (and dead letters) show them. The shared client's message
 * starts with the request line, `POST /hooks/catch/123/T0KEN: cannot connect to …`: the receiver's
 * whole path. That is dropped (the rest names the origin), and any other mention of the path masked.
 */
export function shownFailure(message: string, url: URL): string {
  const requestLine = `POST ${url.pathname}: `;
  const text = message.startsWith(requestLine) ? message.slice(requestLine.length) : message;
  // Only a path of two segments or more hides anything (shownTarget shows the first).
  const hidden = url.pathname.split('/').filter((segment) => segment !== '').length > 1;
  return hidden ? text.split(url.pathname).join(shownTarget(url).slice(url.origin.length)) : text;
}

/**
 * A 3xx's Location as messages and dead letters show it: scheme, host and port, never its path or
 * query. It is chosen by the receiver, most likely its catch hook's new capability URL, and where its
 * token sits is unknown (shownTarget's first segment may be it). Relative to the receiver's URL.
 */
export function shownLocation(location: string, base: URL): string {
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    return 'a location that is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `a ${url.protocol.slice(0, 20)} URL`;
  return `${url.origin}${url.pathname !== '/' || url.search !== '' ? '/…' : ''}`;
}
