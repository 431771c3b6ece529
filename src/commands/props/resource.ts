import type { ResourceSpec } from '../shared/resource.js';

export const PROPERTIES: ResourceSpec = {
  singular: 'property',
  path: '/api/properties',
  view: {
    label: 'properties',
    columns: ['id', 'name', 'propertyType', 'address.line1', 'address.city', 'address.region', 'address.postalCode', 'updatedAt'],
  },
  filters: [
    { flags: '--q <text>', description: 'search name and address', param: 'q' },
    { flags: '--type <propertyType>', description: 'only this property type (see `appraisal ref enums`)', param: 'propertyType' },
    { flags: '--updated-since <timestamp>', description: 'only records updated at or after this ISO 8601 time', param: 'updatedSince', kind: 'timestamp' },
  ],
};
