// Reading a response body: headers flattened, bodies read whole (with a size limit) and 2xx bodies
// parsed as JSON with a depth limit, failures reported with how far the read got.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ContractError, NotJsonError } from '../errors.js';
import { formatBytes } from '../size.js';
import { inexactIntegerIn } from './exact-numbers.js';
import { statusLine } from './http-errors.js';
import { BodyReadError } from './network-errors.js';

export type ResponseHeaders = Readonly<Record<string, string | undefined>>;

export function flattenHeaders(headers: Dispatcher.ResponseData['headers']): ResponseHeaders {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/**
 * Stop reading an answer's body and let its connection go. undici's body, destroyed before it ended,
 * emits an abort 'error': with no reader listening (a body refused by its announced size, one left
 * when an attempt failed) that was an uncaught exception. The listener takes it; the caller has
 * already said why it stopped.
 */
export function discardBody(body: Readable): void {
  if (body.destroyed) return;
  body.on('error', () => undefined);
  body.destroy();
}

export function contentLengthOf(headers: ResponseHeaders): number | undefined {
  const raw = headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

/** Read a whole body as text; a failure part-way is a BodyReadError that knows how far it got. */
export async function readText(body: Readable, expected: number | undefined, limit = Number.POSITIVE_INFINITY): Promise<string> {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      chunks.push(chunk);
      if (received >= limit) break; // leaving the loop destroys the rest
    }
  } catch (error) {
    throw new BodyReadError(received, expected, error);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A 2xx JSON answer larger than this is refused: far above any real page, far below what would exhaust memory. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * Read a whole 2xx JSON body, at most `maxBytes` of it, counted on the bytes received (a
 * content-length is only used to refuse early, never trusted to bound the read): a huge or endless
 * answer ends as a ContractError (exit 9) naming the size, with memory bounded by the limit.
 */
export async function readJsonText(
  body: Readable,
  headers: ResponseHeaders,
  maxBytes: number,
  request: { method: string; target: string },
): Promise<string> {
  return (await readJsonBytes(body, headers, maxBytes, request)).toString('utf8');
}

/** readJsonText's bytes, not yet decoded: outside V8's heap until someone parses them. */
export async function readJsonBytes(
  body: Readable,
  headers: ResponseHeaders,
  maxBytes: number,
  request: { method: string; target: string },
): Promise<Buffer> {
  const tooLarge = (what: string): ContractError => {
    discardBody(body);
    return new ContractError(
      `${request.method} ${request.target}: the answer is ${what}, larger than the ${formatBytes(maxBytes)} limit for one JSON answer; stopped reading`,
      { hint: 'ask for smaller pages (--page-size), or raise the limit with --max-response-size 256MiB (or APPRAISAL_MAX_RESPONSE_SIZE)' },
    );
  };
  const expected = contentLengthOf(headers);
  if (expected !== undefined && expected > maxBytes) throw tooLarge(`announced as ${formatBytes(expected)}`);
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      // Leaving the loop by throwing destroys the rest of the body.
      if (received > maxBytes) throw tooLarge(`more than ${formatBytes(maxBytes)}`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ContractError) throw error;
    throw new BodyReadError(received, expected, error);
  }
  return Buffer.concat(chunks, received);
}

/**
 * How deep a JSON answer may nest. Records are a few levels deep; printing (JSON.stringify, tables,
 * field paths) recurses, so an answer nested thousands of levels deep would overflow the stack
 * instead of being reported as the contract break it is.
 */
export const MAX_JSON_DEPTH = 1000;

/** How many `[` and `{` the text holds, counting at most `limit + 1` (strings not skipped). */
function openBracketsUpTo(text: string, limit: number): number {
  let count = 0;
  for (const bracket of ['[', '{']) {
    for (let at = text.indexOf(bracket); at !== -1 && count <= limit; at = text.indexOf(bracket, at + 1)) count++;
  }
  return count;
}

/** Whether JSON text opens more than `max` arrays/objects inside each other (strings skipped). Iterative. */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  // Text with at most `max` brackets in all cannot nest deeper than `max`: a page of records has a
  // few hundred, and indexOf finds them far faster than the walk below reads every character.
  if (openBracketsUpTo(text, max) <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false; // "
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      // [ or {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--; // ] or }
  }
  return false;
}

/**
 * A 2xx JSON body read whole but not parsed yet: kept as bytes, outside V8's heap, until it is used.
 * Pages an export fetches ahead wait as bytes instead of as record objects, which outlived young-
 * generation collections and grew the old generation with the record count (bench/: memory).
 */
export class DeferredJson {
  constructor(
    private readonly bytes: Buffer,
    private readonly status: number,
    private readonly headers: ResponseHeaders,
    private readonly request: { method: string; target: string },
  ) {}

  /** parseJsonBody of the text: the same checks and errors, at the time of use. */
  parse(): unknown {
    return parseJsonBody(this.bytes.toString('utf8'), this.status, this.headers, this.request);
  }
}

/** Parse a 2xx body: empty → undefined; anything else must be JSON, nested at most MAX_JSON_DEPTH deep. */
export function parseJsonBody(
  text: string,
  status: number,
  headers: ResponseHeaders,
  prepared: { method: string; target: string },
): unknown {
  // A UTF-8 byte order mark before the JSON (some Windows services write one) is not part of it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return undefined;
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ContractError(
      `${prepared.method} ${prepared.target}: the answer nests more than ${MAX_JSON_DEPTH} levels deep (${statusLine(status)}, ${Buffer.byteLength(text)} bytes); no record is shaped like that`,
      { hint: 'the service broke its published contract; report it with the request id from --verbose' },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    const type = headers['content-type'] ?? 'none';
    throw new NotJsonError(
      `${prepared.method} ${prepared.target}: the service answered with a body that is not JSON (${statusLine(status)}, content-type ${type}, ${Buffer.byteLength(text)} bytes)`,
      { hint: 'check that the base URL points at the API service and not at a web page or a proxy' },
    );
  }
  const inexact = inexactIntegerIn(text);
  if (inexact !== undefined) {
    throw new ContractError(
      `${prepared.method} ${prepared.target}: the answer holds the integer ${inexact.slice(0, 40)}, larger than this CLI can keep exact (2^53); refusing rather than changing it`,
      { hint: 'the service should send such numbers as strings; report it with the request id from --verbose' },
    );
  }
  return parsed;
}
