// What a handler returns. The pipeline writes it (and applies response faults to it), so handlers
// never touch the socket. `shape` tells the fault injector which envelope a JSON body is.
import type { JsonObject } from '../state/records.js';

export type JsonShape = 'collection' | 'success' | 'record' | 'other';

export type ResponseBody =
  | { kind: 'json'; value: unknown; shape: JsonShape; previous?: JsonObject | undefined }
  | { kind: 'bytes'; data: Buffer; contentType: string }
  | { kind: 'file'; path: string; size: number; contentType: string }
  | { kind: 'empty' };

export interface MockResponse {
  status: number;
  headers?: Record<string, string>;
  body: ResponseBody;
}

/** A single record (GET/POST/PATCH of a resource). */
export function recordResponse(status: number, record: unknown): MockResponse {
  return { status, body: { kind: 'json', value: record, shape: 'record' } };
}

/** The alternative envelope `{success: true, data}`. */
export function successResponse(status: number, data: unknown): MockResponse {
  return { status, body: { kind: 'json', value: { success: true, data }, shape: 'success' } };
}

export function jsonResponse(status: number, value: unknown): MockResponse {
  return { status, body: { kind: 'json', value, shape: 'other' } };
}

export function noContent(): MockResponse {
  return { status: 204, body: { kind: 'empty' } };
}
