import { UPDATED_SINCE, type ResourceSpec } from '../shared/resource.js';
import { CLIENTS } from '../clients/resource.js';

/** One contact lives at /api/contacts/{id}; a client's contacts are listed and created under it. */
export const CONTACTS: ResourceSpec = {
  singular: 'contact',
  path: '/api/contacts',
  view: {
    label: 'contacts',
    columns: ['id', 'firstName', 'lastName', 'title', 'email', 'phone'],
  },
  filters: [UPDATED_SINCE],
  parent: { option: 'client', singular: CLIENTS.singular, noun: 'clients', path: CLIENTS.path, segment: 'contacts' },
};
