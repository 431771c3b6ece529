// The -v/--verbose request trace on stderr. The credential header shows only the key prefix; the
// redactor behind io.debug is the second line of defence, not the first.
import type { CredentialInfo } from '../credentials/credential.js';
import type { IO } from '../io.js';
import { statusLine } from './http-errors.js';

export function traceRequest(
  io: IO,
  method: string,
  url: URL,
  headers: Readonly<Record<string, string>>,
  credential: CredentialInfo | undefined,
): void {
  if (!io.verbose) return;
  const lines = [`> ${method} ${url.href}`];
  for (const [name, value] of Object.entries(headers)) {
    lines.push(`> ${name}: ${shownHeaderValue(name, value, credential)}`);
  }
  io.debug(lines.join('\n'));
}

export function traceResponse(io: IO, status: number, elapsedMs: number, requestId: string | undefined): void {
  if (!io.verbose) return;
  const id = requestId ? `, request id ${requestId}` : '';
  io.debug(`< ${statusLine(status)} (${Math.round(elapsedMs)} ms${id})`);
}

export function shownHeaderValue(name: string, value: string, credential: CredentialInfo | undefined): string {
  const lower = name.toLowerCase();
  if (lower === 'x-api-key') return `${credential?.prefix ?? ''}…`;
  if (lower === 'authorization') return `${value.split(' ')[0] ?? ''} ${credential?.prefix ?? ''}…`;
  return value;
}
