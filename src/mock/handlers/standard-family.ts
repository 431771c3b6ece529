// A family with the standard verbs served from its model entry and the published description alone,
// with no code of its own: its records are seeded from the record schema the description publishes,
// its list filters are the model's (q searches its name fields, updatedSince polls, any other
// parameter matches the field of its name, checked against the parameter's enum), and create and
// update validate against the create request schema. State is keyed by the family's name.
import type { StandardFamilySeed } from '../data/seeded-from-schema.js';
import { queryParameters, requestSchema, responseSchema } from '../description/operation-schemas.js';
import type { Handler } from '../http/request-context.js';
import type { StoredRecord } from '../state/records.js';
import { recordSpecOf } from '../validation/schema-spec.js';
import type { ResourceFamily, StandardVerb } from '../../model/families.js';
import { exactMatch, textSearch, updatedSince, type FilterSpec } from './list-filters.js';
import { createHandler, deleteHandler, getHandler, listHandler, updateHandler, type ResourceDefinition } from './resource-handlers.js';

type Json = Record<string, unknown>;

/** The record schema: the get answer, else one item of the list answer's page. */
function recordSchemaOf(family: ResourceFamily, document: unknown): Json {
  const record = family.operations.get && responseSchema(document, family.operations.get);
  if (record) return record;
  const page = responseSchema(document, family.operations.list);
  const items = (page?.properties as Json | undefined)?.items as Json | undefined;
  if (!items?.items) throw new Error(`the description publishes no record schema for ${family.name}`);
  return items.items as Json;
}

export function standardFamilySeed(family: ResourceFamily, document: unknown): StandardFamilySeed {
  return { name: family.name, recordSpec: recordSpecOf(document, recordSchemaOf(family, document)) };
}

function filtersOf(family: ResourceFamily, document: unknown): FilterSpec<StoredRecord>[] {
  const published = queryParameters(document, family.operations.list);
  return family.filters.map((filter) => {
    if (filter.param === 'updatedSince') return updatedSince((state) => state.seededOf(family.name));
    if (filter.param === 'q') return textSearch('q', (record) => family.nameFields.map((field) => record[field]));
    const values = published.get(filter.param)?.enum;
    return exactMatch(filter.param, filter.param, Array.isArray(values) ? values.map(String) : undefined);
  });
}

/** The handlers of the family's standard operations (the ones its model entry declares). */
export function standardHandlers(family: ResourceFamily, document: unknown): Partial<Record<StandardVerb, Handler>> {
  const create = family.operations.create && requestSchema(document, family.operations.create);
  const definition: ResourceDefinition<StoredRecord> = {
    singular: family.singular,
    collection: (state) => state.collectionOf(family.name),
    spec: create ? recordSpecOf(document, create) : {},
    filters: filtersOf(family, document),
  };
  const handlers: Partial<Record<StandardVerb, Handler>> = { list: listHandler(definition) };
  if (family.operations.get) handlers.get = getHandler(definition);
  if (family.operations.create) handlers.create = createHandler(definition);
  if (family.operations.update) handlers.update = updateHandler(definition);
  if (family.operations.delete) handlers.delete = deleteHandler(definition);
  return handlers;
}
