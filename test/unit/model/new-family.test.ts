// A family declared once: a new model entry (here `inspections`, with list/get/create) is a noun with
// its verbs, its help line, its declared operations and the mock's routes for them, and no other
// file of the CLI or the mock names it (docs/ARCHITECTURE.md "Adding a family").
import { describe, expect, it } from 'vitest';
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
import { apiContext, runNoun } from '../commands/fake-api.js';

const INSPECTIONS: ResourceFamily = {
  name: 'inspections' as FamilyName,
  command: 'inspections',
  singular: 'inspection',
  nameFields: ['name'],
  path: '/api/inspections',
  view: { label: 'inspections', singular: 'inspection', columns: ['id', 'name', 'status'] },
  filters: [UPDATED_SINCE],
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
