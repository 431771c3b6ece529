// A family declared once: a new model entry (here `inspections`, with list/get/create) is a noun with
// its verbs, its help line, its declared operations and the mock's routes for them, and no other
// file of the CLI or the mock names it (docs/ARCHITECTURE.md "Adding a family"). With its paths and
// schemas in the published description, a real mock started from a model that includes it serves
// it: seeded records, pages, filters, validation, and the CLI's verbs run against it end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../../../openapi.json' with { type: 'json' };
import { familyVerbs } from '../../../src/commands/shared/family-verbs.js';
import { operationsOf } from '../../../src/core/verb.js';
import { API_ROUTES } from '../../../src/mock/index.js';
import {
  FAMILIES,
  familyOperations,
  familySummary,
  UPDATED_SINCE,
  type FamilyName,
  type ResourceFamily,
} from '../../../src/model/families.js';
import { fakeContext } from '../../helpers/fake-context.js';
import { startMock, type MockServer } from '../../helpers/mock.js';
import { apiContext, runNoun } from '../commands/fake-api.js';
import { KEY, makeClient } from '../core/http/helpers.js';

const INSPECTIONS: ResourceFamily = {
  name: 'inspections' as FamilyName,
  command: 'inspections',
  singular: 'inspection',
  nameFields: ['name'],
  path: '/api/inspections',
  view: { label: 'inspections', singular: 'inspection', columns: ['id', 'name', 'status'] },
  filters: [{ flags: '--status <status>', description: 'only inspections in this status', param: 'status' }, UPDATED_SINCE],
  scope: 'properties',
  operations: { list: 'listInspections', get: 'getInspection', create: 'createInspection' },
};
const ID = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

describe('a family declared once (its model entry)', () => {
  it('is a noun with its standard verbs, help line and declared operations', () => {
    const verbs = familyVerbs(INSPECTIONS);
    expect(verbs.map((verb) => verb.name)).toEqual(['list', 'get', 'create']);
    expect(familySummary(INSPECTIONS)).toBe('Inspections: list, get, create');
    expect(verbs.map((verb) => operationsOf(verb).map((operation) => `${operation.method} ${operation.path}`))).toEqual([
      ['GET /api/inspections'],
      ['GET /api/inspections/{id}'],
      ['POST /api/inspections'],
    ]);
    for (const verb of verbs) expect(verb.examples.length).toBeGreaterThan(0);
  });

  it('lists, gets and creates in process', async () => {
    const record = { id: ID, name: 'roof', status: 'scheduled' };
    const fake = apiContext({
      paginate: () => [record],
      get: () => record,
      send: (_method, _path, body) => ({ id: ID, ...(body as object) }),
    });
    const verbs = familyVerbs(INSPECTIONS);
    await runNoun(verbs, fake.ctx, ['list', '--updated-since', '2026-01-01T00:00:00Z']);
    await runNoun(verbs, fake.ctx, ['get', ID]);
    await runNoun(verbs, fake.ctx, ['create', '-f', 'name=roof']);
    expect(fake.calls).toEqual([
      { method: 'PAGINATE', path: '/api/inspections', query: { updatedSince: '2026-01-01T00:00:00Z' } },
      { method: 'GET', path: `/api/inspections/${ID}` },
      { method: 'POST', path: '/api/inspections', body: { name: 'roof' } },
    ]);
    expect(fake.stdout()).toContain('"roof"');
  });

  it('gives the mock its routes: method, path, operationId and the scope each needs', () => {
    expect(familyOperations(INSPECTIONS)).toEqual([
      { verb: 'list', method: 'GET', path: '/api/inspections', operationId: 'listInspections', level: 'read' },
      { verb: 'get', method: 'GET', path: '/api/inspections/{id}', operationId: 'getInspection', level: 'read' },
      { verb: 'create', method: 'POST', path: '/api/inspections', operationId: 'createInspection', level: 'write' },
    ]);
    // The mock serves exactly what the model says for every family it has.
    const served = new Map(API_ROUTES.map((route) => [route.operationId, `${route.method} ${route.path} ${String(route.access)}`]));
    for (const family of FAMILIES)
      for (const operation of familyOperations(family))
        expect(served.get(operation.operationId)).toBe(`${operation.method} ${operation.path} ${family.scope}:${operation.level}`);
  });
});

// The family's description: what a new family adds to openapi.json (paths, operationIds, schemas).
const STATUSES = ['scheduled', 'done', 'cancelled'];
const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });
function describedWithInspections(): unknown {
  const document = structuredClone(openapi) as unknown as {
    paths: Record<string, unknown>;
    components: { schemas: Record<string, unknown> };
  };
  const fields = {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    status: { type: 'string', enum: STATUSES },
    scheduledFor: { type: 'string', format: 'date' },
    inspector: { type: ['string', 'null'], maxLength: 80 },
    findings: { type: 'integer', minimum: 0, maximum: 50 },
  };
  const stamp = { type: 'string', format: 'date-time' };
  document.components.schemas.Inspection = {
    type: 'object',
    required: ['id', 'name', 'status', 'scheduledFor', 'createdAt', 'updatedAt'],
    properties: { id: { type: 'string', format: 'uuid' }, ...fields, createdAt: stamp, updatedAt: stamp },
  };
  document.components.schemas.InspectionCreate = { type: 'object', required: ['name', 'status', 'scheduledFor'], properties: fields };
  document.components.schemas.InspectionPage = {
    type: 'object',
    properties: {
      items: { type: 'array', items: { $ref: '#/components/schemas/Inspection' } },
      pagination: { $ref: '#/components/schemas/Pagination' },
    },
  };
  const query = (name: string) => ({ $ref: `#/components/parameters/${name}` });
  document.paths['/api/inspections'] = {
    get: {
      operationId: 'listInspections',
      parameters: [
        query('page'),
        query('limit'),
        { name: 'status', in: 'query', schema: { type: 'string', enum: STATUSES } },
        query('updatedSince'),
      ],
      responses: { 200: json('InspectionPage') },
    },
    post: {
      operationId: 'createInspection',
      requestBody: { required: true, ...json('InspectionCreate') },
      responses: { 201: json('Inspection') },
    },
  };
  document.paths['/api/inspections/{id}'] = {
    get: {
      operationId: 'getInspection',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 200: json('Inspection') },
    },
  };
  return document;
}

describe('a family served by the mock from its model entry and description alone', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({
      http: true,
      adminKey: KEY,
      records: 30,
      model: { families: [...FAMILIES, INSPECTIONS], document: describedWithInspections() },
    });
  });
  afterAll(() => mock.stop());

  /** One CLI verb of the family run in process against the mock; what it printed, parsed. */
  async function cli(args: string[]): Promise<unknown> {
    const { client } = makeClient(mock.baseUrl);
    const fake = fakeContext({ api: client, globals: { output: 'json', yes: true } });
    try {
      await runNoun(familyVerbs(INSPECTIONS), fake.ctx, args);
    } finally {
      await client.close();
    }
    return JSON.parse(fake.stdout());
  }

  async function request(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('lists its seeded records (made from the published record schema) in the collection envelope, pages and filters', async () => {
    const records = (await cli(['list'])) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(30);
    for (const record of records) {
      expect(STATUSES).toContain(record.status);
      expect(record.scheduledFor).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(typeof record.name).toBe('string');
      expect(String(record.updatedAt) >= String(record.createdAt)).toBe(true);
    }
    const page = await request('GET', '/api/inspections?page=2&limit=7');
    expect(page.body.pagination).toEqual({ page: 2, limit: 7, total: 30, pages: 5 });
    expect((page.body.items as Array<{ id: string }>).map((item) => item.id)).toEqual(records.slice(7, 14).map((record) => record.id));

    const done = (await cli(['list', '--status', 'done'])) as Array<Record<string, unknown>>;
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(records.length);
    expect(done.map((record) => record.id)).toEqual(records.filter((record) => record.status === 'done').map((record) => record.id));
    const since = '2025-01-01T00:00:00.000Z';
    const recent = (await cli(['list', '--updated-since', since])) as Array<Record<string, unknown>>;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.length).toBeLessThan(records.length);
    expect(recent.map((record) => record.id)).toEqual(
      records.filter((record) => String(record.updatedAt) >= since).map((record) => record.id),
    );
    expect((await request('GET', '/api/inspections?status=lost')).status).toBe(422);
  });

  it('gets one record, and answers 404 for an id it does not have', async () => {
    const [first] = (await cli(['list'])) as Array<Record<string, unknown>>;
    expect(await cli(['get', String(first!.id)])).toEqual(first);
    const missing = await request('GET', `/api/inspections/${ID}`);
    expect(missing.status).toBe(404);
  });

  it('creates a record validated against the published create schema; it is then listed and got', async () => {
    const created = (await cli([
      'create',
      '-f',
      'name=roof',
      '-f',
      'status=scheduled',
      '-f',
      'scheduledFor=2026-05-01',
      '-F',
      'findings=3',
    ])) as Record<string, unknown>;
    expect(created).toMatchObject({ name: 'roof', status: 'scheduled', scheduledFor: '2026-05-01', findings: 3 });
    expect(await cli(['get', String(created.id)])).toEqual(created);
    const listed = (await cli(['list'])) as Array<Record<string, unknown>>;
    expect(listed.at(-1)).toEqual(created);

    const bad = await request('POST', '/api/inspections', { name: '', status: 'lost', findings: 99, inspector: null });
    expect(bad.status).toBe(422);
    const problems = JSON.stringify(bad.body);
    for (const field of ['name', 'status', 'scheduledFor', 'findings']) expect(problems).toContain(`"${field}"`);
    expect(problems).not.toContain('"inspector"');
  });
});
