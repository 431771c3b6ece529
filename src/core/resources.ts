// The CLI's view of the service model (src/model/families.ts, which the mock reads too): the family
// table re-exported, plus what only the CLI asks of it (paths with ids filled in, which family guards
// a request path). The CRUD verbs, import, export, watch, smoke and the 403 hints read families here.
import { fillPath } from './description/operations.js';
import { collectionTemplate, FAMILIES, recordTemplate, UPDATED_SINCE, type ResourceFamily } from '../model/families.js';

export {
  collectionTemplate,
  FAMILIES,
  FAMILY_NAMES,
  familyOperations,
  findFamily,
  familySummary,
  isImportable,
  isNoun,
  parentFamily,
  recordTemplate,
  referredFamily,
  RESOURCES,
  standardVerbsOf,
  UPDATED_SINCE,
  type FamilyName,
  type FamilyOperations,
  type ListFilter,
  type ParentLink,
  type ResourceFamily,
  type StandardVerb,
} from '../model/families.js';
export { SCOPE_FAMILIES, type ScopeFamily } from '../model/scopes.js';
export { REFERENCE_ENUMS_PATH } from '../model/reference.js';
import type { ScopeFamily } from '../model/scopes.js';

/** Whether the family's list operation accepts `updatedSince` (inclusive). */
export function acceptsUpdatedSince(family: ResourceFamily): boolean {
  return family.filters.some((filter) => filter.param === UPDATED_SINCE.param);
}

/** Whether records of the family can be read one by one at `{path}/{id}`. */
export function hasRecords(family: ResourceFamily): boolean {
  return family.operations.get !== undefined;
}

export function recordPath(family: ResourceFamily, id: string): string {
  return fillPath(recordTemplate(family), { id });
}

/** The collection path with the parent's id filled in (unchecked: callers validate ids first). */
export function listPath(family: ResourceFamily, parentId?: string): string {
  if (family.parent === undefined) return family.path;
  if (parentId === undefined) throw new Error(`${family.view.label} need a ${family.parent.option} id`);
  return fillPath(collectionTemplate(family), { id: parentId });
}

/**
 * The scope family guarding a request path, from the table (`/api/clients/{id}/contacts` and
 * `/api/contacts/{id}` are both `clients`). Undefined for paths of no family (keys, the description).
 */
export function scopeFamilyOfPath(path: string): ScopeFamily | undefined {
  const segments = (path.split('?')[0] ?? path).split('/').filter(Boolean);
  const apiAt = segments.indexOf('api');
  const first = apiAt >= 0 ? segments[apiAt + 1] : undefined;
  if (first === undefined) return undefined;
  return FAMILIES.find((family) => family.path.split('/').filter(Boolean)[1] === first)?.scope;
}
