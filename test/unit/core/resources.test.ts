// The one resource table against the published description: every family's operations exist with
// the method and path the table derives, and the scope of a path comes from the table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FAMILIES,
  acceptsUpdatedSince,
  collectionTemplate,
  findFamily,
  listPath,
  recordPath,
  recordTemplate,
  scopeFamilyOfPath,
} from '../../../src/core/resources.js';
import { findWatchable as findWatchFamily } from '../../../src/commands/watch/families.js';

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
}
const description = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
  components: { parameters: Record<string, Parameter> };
};
const resolve = (p: Parameter): Parameter => (p.$ref ? description.components.parameters[p.$ref.split('/').pop()!]! : p);

function operation(id: string): { method: string; path: string; query: string[] } {
  for (const [path, item] of Object.entries(description.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.operationId === id) {
        return {
          method: method.toUpperCase(),
          path,
          query: (op.parameters ?? [])
            .map(resolve)
            .filter((p) => p.in === 'query')
            .map((p) => p.name!),
        };
      }
    }
  }
  throw new Error(`${id} is not in openapi.json`);
}

describe('the resource table', () => {
  it.each(FAMILIES.map((family) => [family.name, family] as const))(
    '%s: operations, paths and filters match openapi.json',
    (_name, family) => {
      const list = operation(family.operations.list);
      expect([list.method, list.path]).toEqual(['GET', collectionTemplate(family)]);
      for (const filter of family.filters) expect(list.query).toContain(filter.param);
      expect(acceptsUpdatedSince(family)).toBe(list.query.includes('updatedSince'));
      if (family.operations.get) expect(operation(family.operations.get)).toMatchObject({ method: 'GET', path: recordTemplate(family) });
      if (family.operations.update)
        expect(operation(family.operations.update)).toMatchObject({ method: 'PATCH', path: recordTemplate(family) });
      if (family.operations.delete)
        expect(operation(family.operations.delete)).toMatchObject({ method: 'DELETE', path: recordTemplate(family) });
      if (family.operations.create)
        expect(operation(family.operations.create)).toMatchObject({ method: 'POST', path: collectionTemplate(family) });
    },
  );

  it('derives paths, the guarding scope of a request path, and what watch can poll', () => {
    const contacts = findFamily('contacts')!;
    expect(listPath(contacts, 'c 1')).toBe('/api/clients/c%201/contacts');
    expect(recordPath(contacts, 'x/y')).toBe('/api/contacts/x%2Fy');
    expect(() => listPath(contacts)).toThrow(/client id/);
    expect(findFamily('properties')).toBe(findFamily('props'));
    expect(findFamily('toString')).toBeUndefined();
    expect(scopeFamilyOfPath('/api/clients/1/contacts?page=2')).toBe('clients');
    expect(scopeFamilyOfPath('/api/contacts/1')).toBe('clients');
    expect(scopeFamilyOfPath('/api/reference/enums')).toBe('reference');
    expect(scopeFamilyOfPath('/api/keys')).toBeUndefined();
    expect(findWatchFamily('designations')).toBeUndefined();
    expect(findWatchFamily('contacts')).toMatchObject({ label: 'contacts', parent: 'client', updatedSince: true });
  });
});
