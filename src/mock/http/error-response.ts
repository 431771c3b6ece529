// The error body every failure uses: `{error: {code, message, requestId}}` (+ `details` for 422s).
import type { MockHttpError } from './http-error.js';
import type { MockResponse } from './mock-response.js';

export function errorResponse(error: MockHttpError, requestId: string): MockResponse {
  const body: Record<string, unknown> = { code: error.code, message: error.message, requestId };
  if (error.extras.details) body.details = error.extras.details;
  return { status: error.status, headers: { ...error.extras.headers }, body: { kind: 'json', value: { error: body }, shape: 'other' } };
}
