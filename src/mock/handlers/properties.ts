// /api/properties: list (q, propertyType, updatedSince), create, get, update, delete.
import { PROPERTY_TYPES } from '../data/enums.js';
import type { PropertyRecord } from '../state/records.js';
import { PROPERTY_SPEC } from '../validation/record-specs.js';
import { invalidParameter } from '../http/http-error.js';
import { exactMatch, textSearch, updatedSince } from './list-filters.js';
import { createHandler, deleteHandler, getHandler, listHandler, updateHandler, type ResourceDefinition } from './resource-handlers.js';

const properties: ResourceDefinition<PropertyRecord> = {
  singular: 'property',
  collection: (state) => state.properties,
  spec: PROPERTY_SPEC,
  filters: [
    textSearch('q', (record) => [
      record.name,
      record.address?.line1,
      record.address?.line2,
      record.address?.city,
      record.address?.region,
      record.address?.postalCode,
    ]),
    exactMatch('propertyType', 'propertyType', PROPERTY_TYPES),
    updatedSince((state) => state.seeded.properties),
  ],
};

export const listProperties = listHandler(properties);

/** The alternative description publishes one more filter: `yearBuiltFrom` (built in or after that year). */
export const listPropertiesWithYearFilter = listHandler({
  ...properties,
  filters: [
    ...properties.filters,
    {
      name: 'yearBuiltFrom',
      build(value) {
        const year = Number(value);
        if (!/^\d{1,4}$/.test(value.trim()) || !Number.isInteger(year))
          throw invalidParameter('yearBuiltFrom', `must be a year, got "${value}"`);
        return { matches: (record) => typeof record.yearBuilt === 'number' && record.yearBuilt >= year };
      },
    },
  ],
});
export const createProperty = createHandler(properties);
export const getProperty = getHandler(properties);
export const updateProperty = updateHandler(properties);
export const deleteProperty = deleteHandler(properties);
