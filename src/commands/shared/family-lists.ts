// The list operations a run over several families calls (`export`, `sync`): each family's collection,
// and for contacts, listed per client, the clients' collection too. Declared in `calls` so `spec
// check` and the binding know them; each run narrows them to the families it was asked for.
import type { Operation } from '../../core/description/operations.js';
import { collectionTemplate, parentFamily, type ResourceFamily } from '../../core/resources.js';

/** `query`: the filters a family's list may send (export: updatedSince where the family accepts it). */
export function familyListOperations(families: readonly ResourceFamily[], query: (family: ResourceFamily) => string[]): Operation[] {
  const operations = new Map<string, Operation>();
  for (const family of families) {
    const parent = parentFamily(family);
    if (parent && !operations.has(parent.path)) operations.set(parent.path, { method: 'GET', path: parent.path });
    const path = collectionTemplate(family);
    operations.set(path, { method: 'GET', path, query: query(family) });
  }
  return [...operations.values()];
}
