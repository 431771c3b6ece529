import type { ResourceSpec } from '../shared/resource.js';

export const CLIENTS: ResourceSpec = {
  singular: 'client',
  path: '/api/clients',
  view: {
    label: 'clients',
    columns: ['id', 'name', 'clientType', 'email', 'phone', 'address.city'],
  },
};
