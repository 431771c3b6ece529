import { describe, expect, it } from 'vitest';
import { matchOperation, readContract, templatePattern } from '../../../../src/core/description/document.js';
import { ContractError } from '../../../../src/core/errors.js';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Appraisal API', version: '1.0' },
  paths: {
    '/api/properties': {
      parameters: [{ name: 'page', in: 'query' }],
      get: { operationId: 'listProperties', summary: 'List properties' },
      post: { operationId: 'createProperty' },
    },
    '/api/properties/{id}': { get: { operationId: 'getProperty' }, patch: {}, delete: {} },
    '/api/keys/{id}': { get: { operationId: 'getKey' } },
    '/api/keys/current': { get: { operationId: 'currentKey' } },
    '/api/files/{id}/content': { get: { operationId: 'downloadFile' }, options: {}, trace: {} },
    'not-a-path': { get: {} },
    '/api/broken': 'nonsense',
  },
};

describe('readContract', () => {
  it('reads every operation of the paths object, in a stable order, skipping what it does not understand', () => {
    const contract = readContract(DOCUMENT);
    expect(contract.title).toBe('Appraisal API');
    expect(contract.operations.map((o) => `${o.method} ${o.path}`)).toEqual([
      'GET /api/files/{id}/content',
      'GET /api/keys/current',
      'GET /api/keys/{id}',
      'GET /api/properties',
      'POST /api/properties',
      'GET /api/properties/{id}',
      'PATCH /api/properties/{id}',
      'DELETE /api/properties/{id}',
    ]);
    expect(contract.operations[3]).toMatchObject({ operationId: 'listProperties', summary: 'List properties' });
  });

  it('puts the server path (OpenAPI 3) or basePath (Swagger 2) in front of relative paths', () => {
    const relative = readContract({
      openapi: '3.0.3',
      servers: [{ url: 'https://x.example/api/' }],
      paths: { '/properties': { get: {} } },
    });
    expect(relative.operations[0]!.path).toBe('/api/properties');
    const already = readContract({ openapi: '3.0.3', servers: [{ url: '/api' }], paths: { '/api/properties': { get: {} } } });
    expect(already.operations[0]!.path).toBe('/api/properties');
    const swagger = readContract({ swagger: '2.0', basePath: '/api', paths: { '/clients': { get: {} } } });
    expect(swagger.operations[0]!.path).toBe('/api/clients');
    const templated = readContract({ openapi: '3.0.3', servers: [{ url: 'https://{host}/{base}' }], paths: { '/api/x': { get: {} } } });
    expect(templated.operations[0]!.path).toBe('/api/x');
  });

  it('refuses a document without a paths object', () => {
    expect(() => readContract({ openapi: '3.1.0' })).toThrow(ContractError);
    expect(() => readContract('<html>')).toThrow(/no "paths" object/);
  });
});

describe('matchOperation', () => {
  const contract = readContract(DOCUMENT);

  it('matches templates segment by segment and ignores the query string', () => {
    expect(matchOperation(contract, 'GET', '/api/properties/3f2b8c1e').operation?.operationId).toBe('getProperty');
    expect(matchOperation(contract, 'GET', '/api/properties?page=2&limit=5').operation?.operationId).toBe('listProperties');
    expect(matchOperation(contract, 'GET', '/api/files/abc/content').operation?.operationId).toBe('downloadFile');
    expect(matchOperation(contract, 'GET', '/api/properties/a/b').operation).toBeUndefined();
    expect(matchOperation(contract, 'GET', '/api/properties/').operation).toBeUndefined();
    expect(matchOperation(contract, 'GET', '/api/internal/stats').operation).toBeUndefined();
  });

  it('prefers the literal path over a template', () => {
    expect(matchOperation(contract, 'GET', '/api/keys/current').operation?.operationId).toBe('currentKey');
    expect(matchOperation(contract, 'GET', '/api/keys/0000').operation?.operationId).toBe('getKey');
  });

  it('says which methods a path publishes when the method is not one of them', () => {
    const match = matchOperation(contract, 'PUT', '/api/properties/1');
    expect(match.operation).toBeUndefined();
    expect(match.methodsForPath).toEqual(['GET', 'PATCH', 'DELETE']);
  });

  it('allows HEAD wherever GET is published', () => {
    expect(matchOperation(contract, 'HEAD', '/api/properties').operation?.method).toBe('GET');
    expect(matchOperation(contract, 'HEAD', '/api/nothing').operation).toBeUndefined();
  });

  it('treats regex characters in templates literally', () => {
    expect(templatePattern('/api/a.b/{id}').test('/api/axb/1')).toBe(false);
    expect(templatePattern('/api/a.b/{id}').test('/api/a.b/1')).toBe(true);
    expect(templatePattern('/api/report/{id}.pdf').test('/api/report/12.pdf')).toBe(true);
  });
});
