// The five operations every resource family has: list, get, create, update (merge patch), delete.
// A family describes itself with a ResourceDefinition; the handlers here do the rest.
import { randomUUID } from 'node:crypto';
import { notFound, validationFailed, type FieldProblem } from '../http/http-error.js';
import { readJsonObject } from '../http/json-body.js';
import { noContent, recordResponse, type MockResponse } from '../http/mock-response.js';
import { collectionResponse, pageRequest } from '../http/pagination.js';
import { param, type Handler, type RequestContext } from '../http/request-context.js';
import type { Collection } from '../state/collection.js';
import type { MockState } from '../state/mock-state.js';
import type { JsonObject, StoredRecord } from '../state/records.js';
import { validateFields, type RecordSpec } from '../validation/field-spec.js';
import { mergePatch, withoutServerManaged } from '../validation/merge-patch.js';
import { parseFilters, type FilterSpec } from './list-filters.js';

export interface ResourceDefinition<T extends StoredRecord> {
  /** "property", used in messages. */
  singular: string;
  collection(state: MockState): Collection<T>;
  spec: RecordSpec;
  filters: ReadonlyArray<FilterSpec<T>>;
  /** Defaults for a new record (before validation). */
  defaults?(body: JsonObject, ctx: RequestContext): JsonObject;
  /** Problems with ids a record refers to (a 422). */
  checkReferences?(record: JsonObject, ctx: RequestContext): FieldProblem[];
  /** Throw (e.g. 409) when the change from previous to next is not allowed. */
  checkChange?(previous: T, next: JsonObject): void;
}

export function findOr404<T extends StoredRecord>(collection: Collection<T>, singular: string, id: string): T {
  const record = collection.get(id);
  if (!record) throw notFound(singular, id);
  return record;
}

function check<T extends StoredRecord>(definition: ResourceDefinition<T>, record: JsonObject, ctx: RequestContext): void {
  const problems = validateFields(record, definition.spec);
  if (problems.length === 0) problems.push(...(definition.checkReferences?.(record, ctx) ?? []));
  if (problems.length > 0) throw validationFailed(problems);
}

/** Create a record from validated fields: id first, timestamps last. */
export function insertNew<T extends StoredRecord>(collection: Collection<T>, fields: JsonObject, ctx: RequestContext): T {
  const now = ctx.state.clock.nowIso();
  const record = { id: randomUUID(), ...fields, createdAt: now, updatedAt: now } as T;
  collection.insert(record);
  return record;
}

/** Store a changed record with a new updatedAt, or return the old one when nothing changed. */
export function saveChanged<T extends StoredRecord>(collection: Collection<T>, previous: T, next: JsonObject, ctx: RequestContext): T {
  if (JSON.stringify(next) === JSON.stringify(previous)) return previous;
  const updated = { ...next, updatedAt: ctx.state.clock.nowIso() } as T;
  collection.replace(updated);
  return updated;
}

export function listHandler<T extends StoredRecord>(definition: ResourceDefinition<T>): Handler {
  return (ctx) => {
    const page = pageRequest(ctx.query);
    const filters = parseFilters(ctx, definition.filters);
    return collectionResponse(definition.collection(ctx.state).query(filters, page.offset, page.limit), page);
  };
}

export function getHandler<T extends StoredRecord>(definition: ResourceDefinition<T>): Handler {
  return (ctx) => recordResponse(200, findOr404(definition.collection(ctx.state), definition.singular, param(ctx, 'id')));
}

export function createHandler<T extends StoredRecord>(definition: ResourceDefinition<T>): Handler {
  return async (ctx): Promise<MockResponse> => {
    const body = withoutServerManaged(await readJsonObject(ctx.req));
    const fields = { ...definition.defaults?.(body, ctx), ...body };
    check(definition, fields, ctx);
    return recordResponse(201, insertNew(definition.collection(ctx.state), fields, ctx));
  };
}

export function updateHandler<T extends StoredRecord>(definition: ResourceDefinition<T>): Handler {
  return async (ctx): Promise<MockResponse> => {
    const collection = definition.collection(ctx.state);
    const id = param(ctx, 'id');
    findOr404(collection, definition.singular, id);
    const patch = withoutServerManaged(await readJsonObject(ctx.req));
    // Read the record again: another request may have changed or deleted it while the body arrived.
    const previous = findOr404(collection, definition.singular, id);
    const next = mergePatch(previous, patch);
    check(definition, next, ctx);
    definition.checkChange?.(previous, next);
    return recordResponse(200, saveChanged(collection, previous, next, ctx));
  };
}

export function deleteHandler<T extends StoredRecord>(
  definition: ResourceDefinition<T>,
  afterDelete?: (id: string, ctx: RequestContext) => void,
): Handler {
  return (ctx) => {
    const id = param(ctx, 'id');
    if (!definition.collection(ctx.state).delete(id)) throw notFound(definition.singular, id);
    afterDelete?.(id, ctx);
    return noContent();
  };
}

/** A reference to another record that must exist (a 422 problem when it does not). */
export function missingReference(collection: Collection<StoredRecord>, field: string, singular: string, id: unknown): FieldProblem[] {
  return typeof id === 'string' && !collection.has(id) ? [{ field, message: `no ${singular} with id ${id}` }] : [];
}
