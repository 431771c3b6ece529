// THE model of the service's collections: every family declared once — its command noun, what its
// records are called, where it lives, its list filters, the columns an ops team wants by default, the
// scope family that guards it and its standard operations (list/get/create/update/delete, with the
// operationIds openapi.json publishes them under). The CLI reads it through core/resources.ts (the
// CRUD verbs, import, export, watch, smoke, the 403 hints, lease scopes) and the mock builds its
// routes, their scopes and its page cache from it; neither imports the other (ESLint), both import
// src/model. Pure data and template arithmetic: it imports nothing outside src/model.
// Other consumers enumerate families with FAMILIES (table order) or look one up with findFamily.
import type { ScopeFamily, ScopeLevel } from './scopes.js';

export interface ListFilter {
  /** commander flag spec, e.g. `--type <type>`. */
  flags: string;
  description: string;
  /** Query parameter sent to the service. */
  param: string;
  /** Checked before any request. */
  kind?: 'text' | 'uuid' | 'timestamp';
  /** An old spelling still accepted, left out of help (`--q` for `--search`). */
  alias?: string;
}

/** `--updated-since`, for every collection that publishes `updatedSince`. */
export const UPDATED_SINCE: ListFilter = {
  flags: '--updated-since <timestamp>',
  description: 'only records updated at or after this ISO 8601 time',
  param: 'updatedSince',
  kind: 'timestamp',
};

/** The operationIds of a family's verbs, as published in the service description. */
export interface FamilyOperations {
  list: string;
  get?: string;
  create?: string;
  update?: string;
  delete?: string;
}

export const FAMILY_NAMES = ['props', 'assignments', 'clients', 'contacts', 'files', 'designations'] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];

/** A family whose collection lives under one parent record (contacts of a client). */
export interface ParentLink {
  family: FamilyName;
  /** The flag naming the parent: `client` → `--client <id>`. */
  option: string;
  /** The sub-collection under one parent record, e.g. `contacts`. */
  segment: string;
}

export interface ResourceFamily {
  /** The command noun: `props`. */
  name: FamilyName;
  /** The noun's full command, when it is not a noun of its own: `ref designations`. */
  command: string;
  /** Singular, for messages: "property". */
  singular: string;
  /** Collection path, e.g. `/api/properties`; records live at `{path}/{id}`. */
  path: string;
  /** The fields that name a record to a person (joined by a space), shown beside its id when asking before a delete. */
  nameFields: readonly string[];
  /** Plural label for messages and progress, and the default table/csv columns. */
  view: { label: string; singular: string; columns: readonly string[] };
  filters: readonly ListFilter[];
  /** Set when list and create go through a parent record's sub-collection. */
  parent?: ParentLink;
  /** The scope family that guards it. */
  scope: ScopeFamily;
  operations: FamilyOperations;
}

export const RESOURCES: Readonly<Record<FamilyName, ResourceFamily>> = {
  props: {
    name: 'props',
    command: 'props',
    singular: 'property',
    nameFields: ['name'],
    path: '/api/properties',
    view: {
      label: 'properties',
      singular: 'property',
      columns: ['id', 'name', 'propertyType', 'address.line1', 'address.city', 'address.region', 'address.postalCode', 'updatedAt'],
    },
    filters: [
      { flags: '--search <text>', description: 'search name and address', param: 'q', alias: '--q' },
      { flags: '--type <propertyType>', description: 'only this property type (see `appraisal ref enums`)', param: 'propertyType' },
      UPDATED_SINCE,
    ],
    scope: 'properties',
    operations: {
      list: 'listProperties',
      get: 'getProperty',
      create: 'createProperty',
      update: 'updateProperty',
      delete: 'deleteProperty',
    },
  },
  assignments: {
    name: 'assignments',
    command: 'assignments',
    singular: 'assignment',
    nameFields: ['number'],
    path: '/api/assignments',
    view: {
      label: 'assignments',
      singular: 'assignment',
      columns: ['id', 'number', 'status', 'clientId', 'dueDate', 'fee.amount', 'fee.currency', 'reportType'],
    },
    filters: [
      // Passed through as given: the service owns the states (see `appraisal ref enums`).
      { flags: '--status <status>', description: 'only assignments in this status (see `appraisal ref enums`)', param: 'status' },
      { flags: '--client <id>', description: 'only assignments of this client', param: 'clientId', kind: 'uuid' },
      { flags: '--property <id>', description: 'only assignments linked to this property', param: 'propertyId', kind: 'uuid' },
      UPDATED_SINCE,
    ],
    scope: 'assignments',
    operations: {
      list: 'listAssignments',
      get: 'getAssignment',
      create: 'createAssignment',
      update: 'updateAssignment',
      delete: 'deleteAssignment',
    },
  },
  clients: {
    name: 'clients',
    command: 'clients',
    singular: 'client',
    nameFields: ['name'],
    path: '/api/clients',
    view: { label: 'clients', singular: 'client', columns: ['id', 'name', 'clientType', 'email', 'phone', 'address.city'] },
    filters: [
      { flags: '--search <text>', description: 'search name and email', param: 'q', alias: '--q' },
      { flags: '--type <clientType>', description: 'only this client type (see `appraisal ref enums`)', param: 'clientType' },
      UPDATED_SINCE,
    ],
    scope: 'clients',
    operations: { list: 'listClients', get: 'getClient', create: 'createClient', update: 'updateClient', delete: 'deleteClient' },
  },
  // One contact lives at /api/contacts/{id}; a client's contacts are listed and created under it.
  contacts: {
    name: 'contacts',
    command: 'contacts',
    singular: 'contact',
    nameFields: ['firstName', 'lastName'],
    path: '/api/contacts',
    view: { label: 'contacts', singular: 'contact', columns: ['id', 'firstName', 'lastName', 'title', 'email', 'phone'] },
    filters: [UPDATED_SINCE],
    parent: { family: 'clients', option: 'client', segment: 'contacts' },
    scope: 'clients',
    operations: {
      list: 'listClientContacts',
      get: 'getContact',
      create: 'createClientContact',
      update: 'updateContact',
      delete: 'deleteContact',
    },
  },
  files: {
    name: 'files',
    command: 'files',
    singular: 'file',
    nameFields: ['name'],
    path: '/api/files',
    view: { label: 'files', singular: 'file', columns: ['id', 'name', 'contentType', 'size', 'sha256', 'createdAt'] },
    filters: [
      { flags: '--property <id>', description: 'only files attached to this property', param: 'propertyId', kind: 'uuid' },
      { flags: '--assignment <id>', description: 'only files attached to this assignment', param: 'assignmentId', kind: 'uuid' },
      UPDATED_SINCE,
    ],
    scope: 'files',
    // Files are created by upload (multipart), not by a JSON create.
    operations: { list: 'listFiles', get: 'getFile', create: 'uploadFile', delete: 'deleteFile' },
  },
  // Reference data: read-only, records keyed by `code`, not by id.
  designations: {
    name: 'designations',
    command: 'ref designations',
    singular: 'designation',
    nameFields: ['name'],
    path: '/api/reference/designations',
    view: { label: 'designations', singular: 'designation', columns: ['code', 'name'] },
    filters: [],
    scope: 'reference',
    operations: { list: 'listDesignations' },
  },
};

/** Every family, in table order. */
export const FAMILIES: readonly ResourceFamily[] = FAMILY_NAMES.map((name) => RESOURCES[name]);

/** Other names a family answers to on the command line (`watch properties`). */
const ALIASES: Readonly<Record<string, FamilyName>> = { properties: 'props' };

/** A family by its name or alias, whatever it offers (callers that need records or a verb check for it). */
export function findFamily(name: string): ResourceFamily | undefined {
  const key = Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name;
  return Object.hasOwn(RESOURCES, key) ? RESOURCES[key as FamilyName] : undefined;
}

/** `{path}/{id}`: where one record lives. */
export function recordTemplate(family: ResourceFamily): string {
  return `${family.path}/{id}`;
}

/** The parent family of one that lives under a parent record. */
export function parentFamily(family: ResourceFamily): ResourceFamily | undefined {
  return family.parent && RESOURCES[family.parent.family];
}

/** Where list and create go: the collection, or the parent record's sub-collection. */
export function collectionTemplate(family: ResourceFamily): string {
  const parent = parentFamily(family);
  return parent && family.parent ? `${parent.path}/{id}/${family.parent.segment}` : family.path;
}

/** The standard verbs a family may offer, in help order. */
export const STANDARD_VERBS = ['list', 'get', 'create', 'update', 'delete'] as const;
export type StandardVerb = (typeof STANDARD_VERBS)[number];

/** One standard operation of a family, as the service publishes it and the mock serves it. */
export interface FamilyOperation {
  verb: StandardVerb;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path template: the collection (list, create) or one record (get, update, delete). */
  path: string;
  operationId: string;
  /** The scope level it needs on the family's scope family. */
  level: ScopeLevel;
}

const SHAPE: Readonly<Record<StandardVerb, { method: FamilyOperation['method']; on: 'collection' | 'record'; level: ScopeLevel }>> = {
  list: { method: 'GET', on: 'collection', level: 'read' },
  get: { method: 'GET', on: 'record', level: 'read' },
  create: { method: 'POST', on: 'collection', level: 'write' },
  update: { method: 'PATCH', on: 'record', level: 'write' },
  delete: { method: 'DELETE', on: 'record', level: 'delete' },
};

/** The family's standard operations, in verb order: method, path, operationId and the scope level each needs. */
export function familyOperations(family: ResourceFamily): FamilyOperation[] {
  return STANDARD_VERBS.flatMap((verb) => {
    const operationId = family.operations[verb];
    if (operationId === undefined) return [];
    const shape = SHAPE[verb];
    const path = shape.on === 'collection' ? collectionTemplate(family) : recordTemplate(family);
    return [{ verb, method: shape.method, path, operationId, level: shape.level }];
  });
}
