// From a transport failure (socket, DNS, TLS, timeout, truncated body) to a NetworkError that names
// the cause and the next step, plus whether trying again could help.
import { NetworkError } from '../errors.js';
import { formatDuration } from '../duration.js';
import { formatMinRate, type MinRate } from '../min-rate.js';
import { formatBytes } from '../size.js';

export interface NetworkFailure {
  error: NetworkError;
  /** A connection problem that may pass; a TLS or DNS failure will not. */
  retryable: boolean;
  /** Short cause for retry notices ("connection reset"). */
  reason: string;
  /** What kind of TLS failure it was, for callers whose next step depends on it (absent: not TLS). */
  tls?: TlsProblem;
}

/**
 * The kinds of TLS failure, each with its own fix: trust the signer, use the certificate's name,
 * renew the certificate (expired, not yet valid, revoked), or speak HTTPS at all (the handshake).
 */
export type TlsProblem = 'untrusted' | 'name' | 'validity' | 'handshake';

export interface FailureSite {
  method: string;
  /** Path and query as sent. */
  path: string;
  origin: string;
  timeoutMs: number;
  /** The proxy the request went through, if any: connection failures are then the proxy's. */
  proxy?: string | undefined;
}

/** A failure while the response body was being read; knows how much had arrived. */
export class BodyReadError extends Error {
  constructor(
    readonly received: number,
    readonly expected: number | undefined,
    cause: unknown,
  ) {
    super('response body interrupted', { cause });
  }
}

/** The short reason of every TLS failure (certificate or handshake); its kind is `tls`. */
const TLS_FAILURE = 'a TLS error';

const TLS_TRUST_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const TLS_VALIDITY_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL']);

const CA_HINT =
  'if the service uses a private or self-signed certificate (e.g. `appraisal mock`), trust its CA with --ca-file PATH (or APPRAISAL_CA_FILE)';

/** Every `code` along the cause chain (undici wraps socket and TLS errors). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function messageOf(error: unknown): string {
  let current: unknown = error;
  let last = '';
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current.message) last = current.message;
    current = current.cause;
  }
  return last || String(error);
}

export function timeoutFailure(site: FailureSite): NetworkFailure {
  return {
    error: new NetworkError(`${site.method} ${site.path}: timed out after ${formatDuration(site.timeoutMs)} waiting for ${site.origin}`, {
      hint: 'the service is slow or unreachable; raise --timeout (or APPRAISAL_TIMEOUT) if it needs longer',
    }),
    retryable: true,
    reason: 'a timeout',
  };
}

/** Which body of an exchange was moving: ours to the service, or its answer to us. */
export type TransferDirection = 'sending' | 'receiving';

/** A body moved slower than --min-rate: not retried (a slow link stays slow; a trickling server would only be given more time). */
export function tooSlowFailure(site: FailureSite, direction: TransferDirection, moved: number, floor: MinRate): NetworkFailure {
  const what = direction === 'sending' ? 'the request body went out' : 'the answer arrived';
  const verb = direction === 'sending' ? 'sent' : 'received';
  // An answer cut off after the service had the whole request: a write may have taken effect.
  const mayHaveHappened = direction === 'receiving' && site.method !== 'GET' && site.method !== 'HEAD';
  return {
    error: new NetworkError(
      `${site.method} ${site.path}: ${what} too slowly ${direction === 'sending' ? 'to' : 'from'} ${site.origin} (${formatBytes(moved)} ${verb} in the last ${formatDuration(floor.windowMs)}, below the minimum rate of ${formatMinRate(floor)}); stopped`,
      {
        hint:
          'the link or the service is too slow; lower the floor with --min-rate (or APPRAISAL_MIN_RATE), e.g. --min-rate 1KiB/60s, or remove it with --min-rate 0' +
          (mayHaveHappened ? `; ${site.method} may have taken effect: check before repeating it` : ''),
      },
    ),
    retryable: false,
    reason: 'a transfer below the minimum rate',
  };
}

export function networkFailure(error: unknown, site: FailureSite): NetworkFailure {
  const codes = codesOf(error);
  const has = (set: ReadonlySet<string>): string | undefined => codes.find((code) => set.has(code));
  const where = `${site.method} ${site.path}`;
  const host = new URL(site.origin).host;
  const fail = (message: string, retryable: boolean, reason: string, hint?: string): NetworkFailure => ({
    error: new NetworkError(`${where}: ${message}`, { hint, cause: error }),
    retryable,
    reason,
  });
  const tlsFail = (tls: TlsProblem, message: string, hint: string): NetworkFailure => ({
    ...fail(message, false, TLS_FAILURE, hint),
    tls,
  });

  const trust = has(TLS_TRUST_CODES);
  if (trust) return tlsFail('untrusted', `the TLS certificate of ${host} is not trusted (${trust})`, CA_HINT);
  if (codes.includes('ERR_TLS_CERT_ALTNAME_INVALID')) {
    return tlsFail(
      'name',
      `the TLS certificate of ${host} does not match its host name (${messageOf(error)})`,
      `use the host name the certificate was issued for in --base-url; --ca-file (or APPRAISAL_CA_FILE) only adds trust, it cannot fix a name mismatch`,
    );
  }
  const validity = has(TLS_VALIDITY_CODES);
  if (validity) {
    // Trusting a CA cannot fix a certificate outside its validity period (or revoked).
    const what = validity === 'CERT_HAS_EXPIRED' ? 'has expired' : validity === 'CERT_NOT_YET_VALID' ? 'is not valid yet' : 'was revoked';
    return tlsFail(
      'validity',
      `the TLS certificate of ${host} ${what} (${validity})`,
      validity === 'CERT_REVOKED'
        ? 'the service must get a new certificate; --ca-file cannot help'
        : "the service's certificate must be renewed (--ca-file cannot help); also check this machine's clock",
    );
  }
  if (codes.includes('EPROTO') || codes.some((code) => code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))) {
    return tlsFail(
      'handshake',
      `the TLS handshake with ${host} failed (${messageOf(error)})`,
      `check that the service speaks HTTPS at this address (a plain-HTTP service on this machine needs an http:// base URL); ${CA_HINT}`,
    );
  }
  if (error instanceof BodyReadError) {
    const got = error.expected === undefined ? `${error.received} bytes` : `${error.received} of ${error.expected} bytes`;
    if (has(TIMEOUT_CODES)) return timeoutFailure(site);
    return fail(
      `the connection closed before the whole response arrived (got ${got})`,
      true,
      'a truncated response',
      'the connection or a proxy dropped the response; try again',
    );
  }
  if (site.proxy !== undefined) {
    // Connecting, resolving and reaching are the proxy's business: name it, not the service.
    const proxy = site.proxy.replace(/\/\/[^@/]*@/, '//');
    const via = `the proxy ${proxy} (on the way to ${site.origin})`;
    const refused = /Proxy response \((\d{3})\)/.exec(messageOf(error));
    if (refused?.[1] === '407') {
      return fail(
        `${via} wants credentials (407 Proxy Authentication Required)`,
        false,
        'a proxy error',
        'put them in the proxy URL, e.g. HTTPS_PROXY=http://user:password@proxy.example.com:3128, or list the host in NO_PROXY',
      );
    }
    if (refused?.[1] !== undefined) {
      return fail(
        `${via} refused the connection (${refused[1]})`,
        refused[1].startsWith('5'),
        'a proxy error',
        'check HTTPS_PROXY / HTTP_PROXY and what the proxy allows, or list the host in NO_PROXY',
      );
    }
    const hint = 'check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY to connect directly';
    if (codes.includes('ECONNREFUSED')) return fail(`cannot connect to ${via}: connection refused`, true, 'connection refused', hint);
    if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN'))
      return fail(`cannot resolve the host name of ${via}`, codes.includes('EAI_AGAIN'), 'a DNS failure', hint);
    if (codes.includes('UND_ERR_CONNECT_TIMEOUT')) return fail(`could not connect to ${via} in time`, true, 'a connect timeout', hint);
    const unreachableProxy = has(UNREACHABLE_CODES);
    if (unreachableProxy) return fail(`${via} is unreachable (${unreachableProxy})`, true, 'an unreachable host', hint);
  }
  if (codes.includes('UND_ERR_RES_CONTENT_LENGTH_MISMATCH')) {
    return fail('the response was shorter or longer than its content-length', true, 'a truncated response');
  }
  if (codes.includes('ECONNREFUSED')) {
    return fail(
      `cannot connect to ${site.origin}: connection refused`,
      true,
      'connection refused',
      'is the service running at that address? check --base-url',
    );
  }
  if (codes.includes('ENOTFOUND')) {
    return fail(
      `cannot resolve the host name ${new URL(site.origin).hostname}`,
      false,
      'a DNS failure',
      'check --base-url and your network or proxy settings',
    );
  }
  if (codes.includes('EAI_AGAIN')) {
    return fail(
      `cannot resolve the host name ${new URL(site.origin).hostname} right now (EAI_AGAIN)`,
      true,
      'a DNS failure',
      'check your network or DNS settings',
    );
  }
  const timeout = has(TIMEOUT_CODES);
  if (timeout === 'UND_ERR_CONNECT_TIMEOUT') {
    return fail(
      `could not connect to ${site.origin} in time`,
      true,
      'a connect timeout',
      'check --base-url and your network or proxy settings',
    );
  }
  if (timeout) return timeoutFailure(site);
  const unreachable = has(UNREACHABLE_CODES);
  if (unreachable)
    return fail(`${site.origin} is unreachable (${unreachable})`, true, 'an unreachable host', 'check your network or proxy settings');
  const reset = has(RESET_CODES);
  if (reset) {
    // Plain HTTP sent to a TLS port: the server hangs up on what it cannot parse.
    const hint = site.origin.startsWith('http://')
      ? `if the service speaks HTTPS on this port, use ${site.origin.replace(/^http:/, 'https:')} in --base-url`
      : undefined;
    return fail(`the connection to ${site.origin} was closed unexpectedly (${messageOf(error)})`, true, 'a connection reset', hint);
  }
  return fail(`the request to ${site.origin} failed: ${messageOf(error)}`, false, 'a network error');
}
