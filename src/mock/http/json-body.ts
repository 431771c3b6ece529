// Reading a JSON request body: bounded in size, content type checked, parse errors are a 400 and a
// body that is not a JSON object is a 422 — never a crash.
import type { IncomingMessage } from 'node:http';
import type { JsonObject } from '../state/records.js';
import { MockHttpError } from './http-error.js';

export const MAX_JSON_BYTES = 1024 * 1024;

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** The parsed body, or undefined when the request has no body. */
export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new MockHttpError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `expected a JSON body (content-type application/json), got ${req.headers['content-type']}`,
    );
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new MockHttpError(413, 'PAYLOAD_TOO_LARGE', `the JSON body is larger than ${maxBytes} bytes`);
  const chunks = await new Promise<Buffer[]>((resolve, reject) => {
    const received: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void received.push(chunk);
      // Too large: stop keeping it, let the rest drain, answer 413.
      req.off('data', onData);
      req.resume();
      reject(new MockHttpError(413, 'PAYLOAD_TOO_LARGE', `the JSON body is larger than ${maxBytes} bytes`));
    };
    req.on('data', onData);
    req.once('end', () => resolve(received));
    req.once('error', reject);
  });
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new MockHttpError(400, 'INVALID_JSON', `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as a JSON object (a missing body counts as `{}`); anything else is a 422. */
export async function readJsonObject(req: IncomingMessage): Promise<JsonObject> {
  const body = await readJsonBody(req);
  if (body === undefined) return {};
  if (!isJsonObject(body)) {
    throw new MockHttpError(
      422,
      'VALIDATION_FAILED',
      `the request body must be a JSON object, got ${Array.isArray(body) ? 'an array' : typeof body === 'object' ? 'null' : `a ${typeof body}`}`,
      {
        details: [{ field: '(body)', message: 'must be a JSON object' }],
      },
    );
  }
  return body;
}
