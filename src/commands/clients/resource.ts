import { UPDATED_SINCE, type ResourceSpec } from '../shared/resource.js';

export const CLIENTS: ResourceSpec = {
  singular: 'client',
  path: '/api/clients',
  view: {
    label: 'clients',
    columns: ['id', 'name', 'clientType', 'email', 'phone', 'address.city'],
  },
  filters: [
    { flags: '--q <text>', description: 'search name and email', param: 'q' },
    { flags: '--type <clientType>', description: 'only this client type (see `appraisal ref enums`)', param: 'clientType' },
    UPDATED_SINCE,
  ],
};
