// What a failed check carries so it can be reproduced: method, path, status, request id, the
// service's message and a ready-to-run curl with the key as $APPRAISAL_API_KEY (never the key).
import { HttpError } from '../../../core/errors.js';
import type { Session } from '../../../core/session.js';
import type { CheckRequest, FailureDetails } from '../checks/check.js';

/** A word for a POSIX shell, in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlFor(session: Session, request: CheckRequest): string {
  const url = new URL(request.path, `${session.baseUrl.replace(/\/+$/, '')}/`).toString();
  const parts = ['curl', '-sS', '-i', '-X', request.method];
  if (request.auth !== false) {
    // Double quotes: the shell expands the variable, so the key never appears in the report.
    parts.push(
      '-H',
      session.credential?.kind === 'bearer' ? '"Authorization: Bearer $APPRAISAL_TOKEN"' : '"x-api-key: $APPRAISAL_API_KEY"',
    );
  }
  if (session.caFile) parts.push('--cacert', shellQuote(session.caFile));
  if (request.body !== undefined)
    parts.push('-H', shellQuote('content-type: application/json'), '--data', shellQuote(JSON.stringify(request.body)));
  parts.push(shellQuote(url));
  return parts.join(' ');
}

/** The details of a failure: from the HTTP error when there was one, else from the check's request. */
export function failureDetails(
  session: Session,
  error: unknown,
  request: CheckRequest | undefined,
  redact: (text: string) => string,
): FailureDetails | undefined {
  const http = error instanceof HttpError ? error : undefined;
  const sent: CheckRequest | undefined = http ? { ...request, method: http.method, path: http.path } : request;
  if (!sent) return undefined;
  const details: FailureDetails = { method: sent.method, path: sent.path };
  if (http) {
    details.status = http.status;
    if (http.requestId) details.requestId = http.requestId;
    if (http.serviceMessage) details.serviceMessage = redact(http.serviceMessage);
  }
  details.curl = redact(curlFor(session, sent));
  return details;
}

/** The details as lines, for the table and the JUnit failure body. */
/** The lines under a failed check; `shown` is its detail, printed already (the service's message is not repeated). */
export function detailLines(details: FailureDetails, shown = ''): string[] {
  const lines: string[] = [];
  const answer = [
    details.status !== undefined ? `HTTP ${details.status}` : undefined,
    details.requestId ? `request id ${details.requestId}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  if (details.method && details.path) lines.push(`request: ${details.method} ${details.path}${answer ? ` → ${answer}` : ''}`);
  if (details.serviceMessage && !shown.includes(details.serviceMessage)) lines.push(`service said: ${details.serviceMessage}`);
  if (details.curl) lines.push(`reproduce: ${details.curl}`);
  return lines;
}
