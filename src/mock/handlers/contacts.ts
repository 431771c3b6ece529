// Contacts (part of the clients family): GET/POST /api/clients/{id}/contacts, and
// GET/PATCH/DELETE /api/contacts/{id}.
import { notFound, validationFailed } from '../http/http-error.js';
import { readJsonObject } from '../http/json-body.js';
import { recordResponse } from '../http/mock-response.js';
import { collectionResponse, pageRequest } from '../http/pagination.js';
import { param, type Handler } from '../http/request-context.js';
import type { RecordFilter } from '../state/collection.js';
import type { ContactRecord } from '../state/records.js';
import { validateFields } from '../validation/field-spec.js';
import { withoutServerManaged } from '../validation/merge-patch.js';
import { CONTACT_SPEC } from '../validation/record-specs.js';
import { parseFilters, updatedSince } from './list-filters.js';
import { deleteHandler, getHandler, insertNew, missingReference, updateHandler, type ResourceDefinition } from './resource-handlers.js';

const contacts: ResourceDefinition<ContactRecord> = {
  singular: 'contact',
  collection: (state) => state.contacts,
  spec: CONTACT_SPEC,
  filters: [updatedSince((state) => state.seeded.contacts)],
  checkReferences: (record, ctx) => missingReference(ctx.state.clients, 'clientId', 'client', record.clientId),
};

export const getContact = getHandler(contacts);
export const updateContact = updateHandler(contacts);
export const deleteContact = deleteHandler(contacts);

export const listClientContacts: Handler = (ctx) => {
  const clientId = param(ctx, 'id');
  if (!ctx.state.clients.has(clientId)) throw notFound('client', clientId);
  const page = pageRequest(ctx.query);
  const seeded = ctx.state.seeded.contacts;
  const clientIndex = ctx.state.seeded.clients.indexOf(clientId);
  const ofClient: RecordFilter<ContactRecord> = {
    matches: (record) => record.clientId === clientId,
    // A seeded contact belongs to a seeded client: decide from indexes, without generating it.
    matchesSeeded: (index) => clientIndex !== undefined && seeded.clientIndexAt(index) === clientIndex,
  };
  return collectionResponse(ctx.state.contacts.query([ofClient, ...parseFilters(ctx, contacts.filters)], page.offset, page.limit), page);
};

export const createClientContact: Handler = async (ctx) => {
  const clientId = param(ctx, 'id');
  if (!ctx.state.clients.has(clientId)) throw notFound('client', clientId);
  const body = withoutServerManaged(await readJsonObject(ctx.req));
  const fields = { ...body, clientId };
  const problems = validateFields(fields, CONTACT_SPEC);
  if (problems.length > 0) throw validationFailed(problems);
  if (!ctx.state.clients.has(clientId)) throw notFound('client', clientId);
  return recordResponse(201, insertNew(ctx.state.contacts, fields, ctx));
};
