// /api/clients: CRUD with filters (q, clientType, updatedSince).
import { CLIENT_TYPES } from '../data/enums.js';
import type { ClientRecord } from '../state/records.js';
import { CLIENT_SPEC } from '../validation/record-specs.js';
import { exactMatch, textSearch, updatedSince } from './list-filters.js';
import { createHandler, deleteHandler, getHandler, listHandler, updateHandler, type ResourceDefinition } from './resource-handlers.js';

const clients: ResourceDefinition<ClientRecord> = {
  singular: 'client',
  collection: (state) => state.clients,
  spec: CLIENT_SPEC,
  filters: [
    textSearch('q', (record) => [record.name, record.email]),
    exactMatch('clientType', 'clientType', CLIENT_TYPES),
    updatedSince((state) => state.seeded.clients),
  ],
};

export const listClients = listHandler(clients);
export const createClient = createHandler(clients);
export const getClient = getHandler(clients);
export const updateClient = updateHandler(clients);
export const deleteClient = deleteHandler(clients);
