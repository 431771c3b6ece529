// /api/properties: list (q, propertyType, updatedSince), create, get, update, delete.
import { PROPERTY_TYPES } from '../data/enums.js';
import type { PropertyRecord } from '../state/records.js';
import { PROPERTY_SPEC } from '../validation/record-specs.js';
import { exactMatch, textSearch, updatedSince } from './list-filters.js';
import { createHandler, deleteHandler, getHandler, listHandler, updateHandler, type ResourceDefinition } from './resource-handlers.js';

const properties: ResourceDefinition<PropertyRecord> = {
  singular: 'property',
  collection: (state) => state.properties,
  spec: PROPERTY_SPEC,
  filters: [
    textSearch('q', (record) => [record.name, record.address?.line1, record.address?.line2, record.address?.city, record.address?.region, record.address?.postalCode]),
    exactMatch('propertyType', 'propertyType', PROPERTY_TYPES),
    updatedSince((state) => state.seeded.properties),
  ],
};

export const listProperties = listHandler(properties);
export const createProperty = createHandler(properties);
export const getProperty = getHandler(properties);
export const updateProperty = updateHandler(properties);
export const deleteProperty = deleteHandler(properties);
