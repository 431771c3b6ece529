// What each family's create body must look like (PATCH merges into the record, and the merged
// record must still pass the same spec).
import { ASSIGNMENT_STATUSES, CLIENT_TYPES, PROPERTY_TYPES, REPORT_TYPES } from '../data/enums.js';
import type { FieldSpec, RecordSpec } from './field-spec.js';

const text = (maxLength = 500): FieldSpec => ({ type: 'string', maxLength });
const requiredText = (maxLength = 500): FieldSpec => ({ type: 'string', required: true, minLength: 1, maxLength });

export const ADDRESS_SPEC: RecordSpec = {
  line1: requiredText(),
  line2: text(),
  city: requiredText(),
  region: requiredText(),
  postalCode: requiredText(20),
  country: requiredText(60),
};

export const PROPERTY_SPEC: RecordSpec = {
  name: requiredText(200),
  address: { type: 'object', required: true, fields: ADDRESS_SPEC },
  propertyType: { type: 'enum', required: true, values: PROPERTY_TYPES },
  parcelNumber: text(100),
  yearBuilt: { type: 'integer', min: 1600, max: 2100 },
  grossBuildingArea: { type: 'number', min: 0 },
  landArea: { type: 'number', min: 0 },
  latitude: { type: 'number', min: -90, max: 90 },
  longitude: { type: 'number', min: -180, max: 180 },
};

export const ASSIGNMENT_SPEC: RecordSpec = {
  // Filled in on create when absent, so always present after.
  number: { type: 'string', required: true, minLength: 1, maxLength: 40 },
  status: { type: 'enum', required: true, values: ASSIGNMENT_STATUSES },
  clientId: { type: 'string', required: true, format: 'uuid' },
  propertyIds: { type: 'array', required: true, items: { type: 'string', format: 'uuid' }, unique: true },
  dueDate: { type: 'string', required: true, format: 'date' },
  fee: {
    type: 'object',
    required: true,
    fields: { amount: { type: 'number', required: true, min: 0 }, currency: { type: 'string', required: true, format: 'currency' } },
  },
  reportType: { type: 'enum', required: true, values: REPORT_TYPES },
  intendedUse: text(),
};

export const CLIENT_SPEC: RecordSpec = {
  name: requiredText(200),
  clientType: { type: 'enum', required: true, values: CLIENT_TYPES },
  email: { type: 'string', format: 'email', maxLength: 254 },
  phone: text(40),
  address: { type: 'object', fields: ADDRESS_SPEC },
};

export const CONTACT_SPEC: RecordSpec = {
  clientId: { type: 'string', required: true, format: 'uuid' },
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: { type: 'string', format: 'email', maxLength: 254 },
  phone: text(40),
  title: text(100),
};

export const ATTACHMENT_SPEC: RecordSpec = {
  targetType: { type: 'enum', required: true, values: ['property', 'assignment'] },
  targetId: { type: 'string', required: true, minLength: 1 },
};

export const KEY_CREATE_SPEC: RecordSpec = {
  name: requiredText(200),
  scopes: { type: 'array', required: true, minItems: 1, unique: true, items: { type: 'string', minLength: 1 } },
  expiresAt: { type: 'string', format: 'date-time' },
};
