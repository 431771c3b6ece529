// openapi.json is a valid OpenAPI 3.1 document, the mock serves exactly it, and the routes the mock
// serves under /api are exactly its operations (both directions), with the same operationIds and
// the same required scopes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, API_ROUTES, scopesAllowing } from '../../src/mock/index.js';
import { call, useMock } from '../helpers/mock-admin.js';

const ROOT = join(import.meta.dirname, '..', '..');
const text = readFileSync(join(ROOT, 'openapi.json'), 'utf8');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId?: string;
  security?: unknown[];
  'x-required-scopes'?: string[];
}

function documentOperations(document: { paths: Record<string, Record<string, unknown>> }) {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      if (item[method]) operations.set(`${method.toUpperCase()} ${path}`, item[method] as Operation);
    }
  }
  return operations;
}

const mock = useMock({ records: 3 });

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = JSON.parse(text);
    expect(document.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    const broken = structuredClone(document);
    broken.paths['/api/properties'].get.responses = 'none';
    expect((await validate(broken)).valid).toBe(false);
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
  });

  it('has exactly the routes the mock serves under /api (both directions), with their operationIds', () => {
    const documented = documentOperations(JSON.parse(text));
    const served = new Map(API_ROUTES.map((route) => [`${route.method} ${route.path}`, route]));
    expect([...served.keys()].filter((key) => !documented.has(key))).toEqual([]);
    expect([...documented.keys()].filter((key) => !served.has(key))).toEqual([]);
    for (const [key, route] of served) expect(documented.get(key)!.operationId, key).toBe(route.operationId);
    expect(new Set([...documented.values()].map((o) => o.operationId)).size).toBe(documented.size);
  });

  it('documents what each operation needs the way the mock enforces it', () => {
    const documented = documentOperations(JSON.parse(text));
    for (const route of API_ROUTES) {
      const operation = documented.get(`${route.method} ${route.path}`)!;
      if (route.access === 'public') {
        expect(operation.security, route.path).toEqual([]);
        expect(operation['x-required-scopes']).toEqual([]);
      } else if (route.access === 'any-key') {
        expect(operation.security).toBeUndefined();
        expect(operation['x-required-scopes']).toEqual([]);
      } else {
        expect(operation.security).toBeUndefined();
        expect(operation['x-required-scopes'], route.path).toEqual(scopesAllowing(route.access));
      }
    }
  });

  it('never mentions the admin routes', () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThan(0);
    expect(text).not.toContain('__mock');
    expect(API_ROUTES.every((route) => route.path.startsWith('/api/'))).toBe(true);
  });

  it('is what GET /api/openapi.json serves, without a key', async () => {
    const reply = await call(mock.server, 'GET', '/api/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json()).toEqual(JSON.parse(text));
  });
});
