// From a non-2xx answer to the error the user reads. The error body is parsed tolerantly (the
// service's documented shape, a few common others, plain text, nothing), and 401/403 messages say
// which credential was refused and what to do next, naming the key by its prefix only.
import { STATUS_CODES } from 'node:http';
import { describeSource, type CredentialInfo } from '../credentials/credential.js';
import { isUsualKeyPrefix, namedKey } from '../redact.js';
import { scopeFamilyOfPath } from '../resources.js';
import { RETRYABLE_STATUSES } from './retry.js';
import {
  AuthenticationError,
  HttpError,
  type HttpErrorInfo,
  NotFoundError,
  PermissionError,
  RejectedError,
  ServiceUnavailableError,
} from '../errors.js';

export interface ServiceError {
  code?: string | undefined;
  message?: string | undefined;
  requestId?: string | undefined;
  /** Scopes the service said the operation needs, when it said so in a structured way. */
  requiredScopes?: string[] | undefined;
}

const MAX_MESSAGE = 300;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = value.replace(/\s+/g, ' ').trim();
  if (clean === '') return undefined;
  return clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE)}…` : clean;
}

function textList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
  return items.length > 0 ? items.map((item) => item.trim()) : undefined;
}

/**
 * Read whatever the service said about a failure. Accepts `{error: {code, message, requestId,
 * details}}` (the documented shape), `{error: "..."}`, `{message}`, RFC 7807 problem details,
 * `{errors: [{message}]}`, and short plain text; anything else yields an empty result.
 */
export function parseServiceError(body: string, contentType: string | undefined): ServiceError {
  const trimmed = body.trim();
  if (trimmed === '') return {};
  let json: unknown;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
  }
  if (json === undefined) {
    // Plain text is worth showing when it is short and not a web page.
    const isHtml = /html/i.test(contentType ?? '') || trimmed.startsWith('<');
    const isJson = /json/i.test(contentType ?? '');
    if (isHtml || isJson) return {};
    return { message: text(trimmed.split(/\r?\n/)[0]) };
  }
  if (!isObject(json)) return {};
  const error = json.error;
  if (isObject(error)) {
    const details = isObject(error.details) ? error.details : {};
    return {
      code: text(error.code),
      message: text(error.message) ?? text(error.detail) ?? text(json.message),
      requestId: text(error.requestId) ?? text(error.request_id) ?? text(json.requestId),
      requiredScopes: textList(details.requiredScopes) ?? textList(details.required_scopes) ?? textList(error.requiredScopes),
    };
  }
  const nested = Array.isArray(json.errors)
    ? json.errors
        .map((item) => (isObject(item) ? text(item.message) : text(item)))
        .filter((item): item is string => item !== undefined)
        .join('; ')
    : '';
  return {
    code: text(json.code) ?? (typeof error === 'string' && /^[A-Z][A-Z0-9_]+$/.test(error) ? error : undefined),
    message:
      text(json.message) ?? text(json.detail) ?? (typeof error === 'string' ? text(error) : undefined) ?? text(json.title) ?? text(nested),
    requestId: text(json.requestId) ?? text(json.request_id),
    requiredScopes: textList(json.requiredScopes),
  };
}

/**
 * The scopes a message says are needed, e.g. "requires one of: a:write, b:write (key has: a:read)":
 * only the part after "requires"/"needs"/"missing", up to a parenthesis, so the scopes the key
 * already has are not mistaken for the ones it lacks.
 */
export function scopesInMessage(message: string | undefined): string[] {
  if (!message) return [];
  const wanted = /\b(?:requires?|required|needs?|missing)\b([^();]*)/i.exec(message);
  if (!wanted?.[1]) return [];
  const found = wanted[1].match(/\b[a-z][a-z_-]*:(?:read|write|delete|admin)\b/g) ?? [];
  return [...new Set(found)];
}

/**
 * The scopes an operation most likely needs, from its method and path family (API.md scopes), for
 * when the service did not say. Undefined where no good guess exists.
 */
export function likelyScopes(method: string, path: string): string[] | undefined {
  const pathname = path.split('?')[0] ?? path;
  const segments = pathname.split('/').filter(Boolean);
  const apiAt = segments.indexOf('api');
  const family = apiAt >= 0 ? segments[apiAt + 1] : undefined;
  if (family === 'keys') {
    // The calling key's own record needs no particular scope.
    if (segments[apiAt + 2] === 'current') return undefined;
    return ['keys:admin', 'api:admin'];
  }
  const upper = method.toUpperCase();
  const access = upper === 'GET' || upper === 'HEAD' ? 'read' : upper === 'DELETE' ? 'delete' : 'write';
  const resource = scopeFamilyOfPath(pathname);
  return resource === undefined ? [`api:${access}`] : [`${resource}:${access}`, `api:${access}`];
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function credentialText(credential: CredentialInfo, profileName: string): string {
  const what = credential.kind === 'bearer' ? 'access token' : 'API key';
  // A key not in the documented form (a pasted token, a short test value) says so: it may be the wrong thing.
  const unusual = credential.kind === 'api-key' && !isUsualKeyPrefix(credential.prefix) ? '; not in the usual apk_… form' : '';
  return `the ${namedKey(credential.prefix, what)} (profile "${profileName}", from ${describeSource(credential)}${unusual})`;
}

/** What to do after a 401, depending on where the credential came from. */
function authenticationHint(credential: CredentialInfo | undefined, profileName: string): string {
  const login = `run \`appraisal auth login --profile ${profileName}\` to store a valid key`;
  if (credential === undefined) return `${login}, or set APPRAISAL_API_KEY`;
  switch (credential.source) {
    case 'env': {
      const variable = credential.kind === 'bearer' ? 'APPRAISAL_TOKEN' : 'APPRAISAL_API_KEY';
      return `check ${variable}: it may be mistyped, expired or revoked (unset it to use the profile's stored key)`;
    }
    case 'api-key-file':
      return 'check the key in the file given to --api-key-file: it may be mistyped, expired or revoked';
    default:
      return `the stored key may have expired or been revoked: ${login}`;
  }
}

function permissionHint(
  method: string,
  path: string,
  service: ServiceError,
  credential: CredentialInfo | undefined,
  profileName: string,
): string {
  const stated = service.requiredScopes ?? scopesInMessage(service.message);
  const next = credential?.source === 'env' ? 'then put it in APPRAISAL_API_KEY' : `then \`appraisal auth login --profile ${profileName}\``;
  if (stated.length > 0) {
    return `this key needs scope ${orList(stated)}: use a key that has it (an admin creates one with \`appraisal keys create\`), ${next}`;
  }
  const guess = likelyScopes(method, path);
  if (guess !== undefined) {
    return `this key probably needs scope ${orList(guess)}, or access to this organization or record: use a key that has it, ${next}`;
  }
  return `this key lacks the permission, organization or record access this operation needs: use a key that has it, ${next}`;
}

export interface FailedExchange {
  status: number;
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
  profileName: string;
  /** The credential sent with the request, if any. */
  credential: CredentialInfo | undefined;
  /** How many times the request was sent. */
  attempts: number;
  /** Whether the request was eligible for retries at all. */
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? 'Unknown Status'}`;
}

/** The HttpError subclass for a non-2xx answer, with a message that says what happened. */
export function httpErrorFor(failure: FailedExchange): HttpError {
  const { status, method, path, credential, profileName } = failure;
  const service = parseServiceError(failure.body, failure.headers['content-type']);
  const requestId = service.requestId ?? failure.headers['x-request-id'];
  const said = service.message ? `: ${service.message}` : '';
  const idText = requestId ? ` (request id ${requestId})` : '';
  const head = `${method} ${path}: ${statusLine(status)} — `;
  const info: HttpErrorInfo = {
    status,
    method,
    path,
    requestId,
    serviceCode: service.code,
    serviceMessage: service.message,
    retryAfterMs: failure.retryAfterMs,
    link: failure.headers.link,
  };

  if (status === 401) {
    const what =
      credential === undefined
        ? 'the service wants a credential for this request'
        : `${credentialText(credential, profileName)} was not accepted (missing, invalid, expired or revoked)`;
    return new AuthenticationError(`${head}${what}${said}${idText}`, {
      ...info,
      hint: authenticationHint(credential, profileName),
    });
  }
  if (status === 403) {
    const who = credential === undefined ? 'the request' : credentialText(credential, profileName);
    return new PermissionError(`${head}${who} is authenticated but not allowed to do this${said}${idText}`, {
      ...info,
      hint: permissionHint(method, path, service, credential, profileName),
    });
  }
  const message = `${method} ${path}: ${statusLine(status)}${service.message ? ` — ${service.message}` : ''}${idText}`;
  if (status === 404) {
    // A DELETE is sent again when an attempt fails; the one whose answer was lost may have deleted it.
    if (method !== 'DELETE' || failure.attempts === 1) return new NotFoundError(message, info);
    return new NotFoundError(message, {
      ...info,
      hint: `the DELETE was sent ${failure.attempts} times: an earlier attempt, whose answer did not arrive, may have deleted it`,
    });
  }
  if (status === 429 || status >= 500) {
    let hint: string;
    if (status === 429) {
      // Rate limited: refused, not carried out, so running it again is safe once the wait is over.
      const wait =
        failure.retryAfterMs === undefined ? 'in a moment' : `in ${Math.max(1, Math.ceil(failure.retryAfterMs / 1000))} s (Retry-After)`;
      const tried = failure.retryable
        ? failure.attempts > 1
          ? ` after ${failure.attempts} attempts`
          : ''
        : ` (${method} is not retried automatically)`;
      hint = `the service is rate-limiting this key${tried}: run it again ${wait}, or lower --concurrency`;
    } else if (!failure.retryable && method !== 'GET' && method !== 'HEAD') {
      hint = `${method} is not retried automatically: check whether the request took effect before repeating it`;
    } else if (!failure.retryable) {
      // A read sent once (the service description's): nothing to check, and --retries would not repeat it.
      hint = 'the service is overloaded or failing; try again later';
    } else if (failure.attempts > 1) {
      hint = `gave up after ${failure.attempts} attempts; the service is overloaded or failing, try again later`;
    } else if (!RETRYABLE_STATUSES.has(status)) {
      // A 500 means the service broke on this request, not "later": --retries would not repeat it.
      hint = `the service failed on this request (${status} is never retried automatically); try again later`;
    } else {
      hint = 'the service is overloaded or failing; try again later (or allow retries with --retries N)';
    }
    return new ServiceUnavailableError(message, { ...info, hint });
  }
  return new RejectedError(message, info);
}
