// Whatever a client sends, the mock answers with a status below 500 and the error body — it never
// crashes and never hits an internal error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, UNKNOWN_ID, useMock } from '../helpers/mock-admin.js';

const internalErrors: unknown[] = [];
const mock = useMock({ records: 8, http: true, onInternalError: (error) => internalErrors.push(error) });

const ODD_REQUESTS: Array<[string, string, { rawBody?: string; headers?: Record<string, string> }?]> = [
  ['GET', '/api/properties/%E0%A4%A'],
  ['GET', `/api/properties?updatedSince=${encodeURIComponent('2025-02-30T25:61:00Z')}`],
  ['GET', `/api/properties?page=${'9'.repeat(40)}`],
  ['POST', '/api/properties', { rawBody: 'null' }],
  ['POST', '/api/properties', { rawBody: '"text"' }],
  ['POST', '/api/properties', { rawBody: '\u0000\u0001' }],
  ['PATCH', `/api/assignments/${UNKNOWN_ID}`, { rawBody: '{' }],
  [
    'POST',
    '/api/assignments',
    { rawBody: JSON.stringify({ clientId: 5, propertyIds: 'x', fee: 'free', dueDate: 'soon', reportType: null }) },
  ],
  ['POST', '/api/keys', { rawBody: JSON.stringify({ name: ['x'], scopes: 'api:read', expiresAt: 12 }) }],
  ['POST', '/api/keys', { rawBody: JSON.stringify({ name: 'x', scopes: [null, 3] }) }],
  ['POST', '/__mock/faults', { rawBody: JSON.stringify({ path: '/api/x', query: [1], fault: 'hang', count: 'many' }) }],
  ['POST', '/__mock/faults', { rawBody: JSON.stringify({ faults: [null, 'x', { status: 99 }] }) }],
  ['POST', '/__mock/keys', { rawBody: JSON.stringify({ scopes: ['nope'] }) }],
  ['POST', '/api/files', { headers: { 'content-type': 'multipart/form-data' }, rawBody: 'no boundary' }],
  ['POST', '/api/files', { headers: { 'content-type': 'multipart/form-data; boundary=x' }, rawBody: '' }],
  ['GET', '/api/properties', { headers: { 'x-mock-fault': 'status=429;retry-after=-1' } }],
  ['GET', '/api/properties', { headers: { 'x-mock-fault': 'status=5;;;==' } }],
  ['DELETE', '/api/keys/current'],
  ['PUT', `/api/assignments/${UNKNOWN_ID}/properties/%ZZ`],
  ['HEAD', '/api/properties'],
  ['OPTIONS', '/api/properties'],
];

describe('robustness', () => {
  it.each(ODD_REQUESTS)('%s %s → a 4xx with the error body', async (method, path, options = {}) => {
    const reply = await call(mock.server, method, path, {
      headers: { 'content-type': 'application/json', ...options.headers },
      ...(options.rawBody !== undefined ? { rawBody: options.rawBody } : {}),
    });
    expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
    expect(reply.status, reply.text).toBeLessThan(500);
    expect(reply.headers['x-request-id']).toMatch(/^req_/);
    if (method !== 'HEAD')
      expect(reply.json().error).toMatchObject({
        code: expect.stringMatching(/^[A-Z][A-Z0-9_]*$/),
        message: expect.any(String),
        requestId: reply.headers['x-request-id'],
      });
  });

  it('reads the first of repeated query parameters', async () => {
    const reply = await call(mock.server, 'GET', '/api/properties?page=1&page=2&limit=3&limit=999');
    expect(reply.status).toBe(200);
    expect(reply.json().pagination).toMatchObject({ page: 1, limit: 3 });
  });

  it('answers random requests below 500', async () => {
    const segment = fc.oneof(
      fc.constantFrom('api', 'properties', 'assignments', 'clients', 'contacts', 'files', 'keys', 'content', 'current', UNKNOWN_ID, ''),
      fc.webSegment(),
    );
    const body = fc.oneof(fc.constant(undefined), fc.json(), fc.string());
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
        fc.array(segment, { maxLength: 5 }),
        body,
        async (method, segments, raw) => {
          const path = `/api/${segments.join('/')}`;
          const reply = await call(
            mock.server,
            method,
            path,
            raw === undefined ? {} : { rawBody: raw, headers: { 'content-type': 'application/json' } },
          );
          expect(reply.status, `${method} ${path} ${raw ?? ''} → ${reply.text}`).toBeLessThan(500);
          expect(reply.headers['x-request-id']).toMatch(/^req_/);
        },
      ),
      { numRuns: 300 },
    );
    expect(internalErrors).toEqual([]);
  });
});
