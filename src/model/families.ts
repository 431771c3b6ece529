// THE model of the service's collections: every family declared once — its command noun, what its
// records are called, where it lives, its list filters, the columns an ops team wants by default, the
// scope family that guards it and its standard operations (list/get/create/update/delete, with the
// operationIds openapi.json publishes them under). The CLI reads it through core/resources.ts (the
// CRUD verbs, import, export, watch, smoke, the 403 hints, lease scopes) and the mock builds its
// routes, their scopes and its page cache from it; neither imports the other (ESLint), both import
// src/model. Pure data and template arithmetic: it imports nothing outside src/model.
// Other consumers enumerate families with FAMILIES (table order) or look one up with findFamily.
// A family with the standard verbs is this entry and nothing else in the CLI: its noun, its verbs
// (made by commands/shared/family-verbs.ts), its help line and examples all come from here.
// Over 300 lines because it is the one table of families: data, one entry per family.
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
  /**
   * The noun's one line in the root help, when the family is a noun of its own (`command` is its
   * name); without it the line is made from the label and the verbs it offers.
   */
  summary?: string;
  /** Other names the noun answers to (`properties`). */
  aliases?: readonly string[];
  /** How records are created: a JSON body (`create`), or a multipart upload (files: the noun's own `upload`). */
  creates?: 'json' | 'upload';
  /** Fields whose values are one of the service's reference lists (`GET /api/reference/enums`): field → list name. */
  enums?: Readonly<Record<string, string>>;
  /** A field holding ids of another family's records (assignments' `propertyIds`): import can match them by a field. */
  refers?: { field: string; family: FamilyName };
  /** The examples of its standard verbs' --help (each is run by the example tests); absent, made from the model. */
  examples?: Partial<Readonly<Record<StandardVerb | 'import', readonly string[]>>>;
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
    aliases: ['properties'],
    enums: { propertyType: 'propertyTypes' },
    examples: {
      list: [
        'appraisal props list',
        'appraisal props list --type industrial --updated-since 2026-01-01 -o csv --out industrial.csv',
        'appraisal props list -o ndjson --concurrency 8 | jq .name',
      ],
      get: ['appraisal props get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', 'appraisal props get ID -o json --fields id,name,address.city'],
      create: [
        'appraisal props create --data @property.json',
        "appraisal props create -f name='Harbor Point' -f propertyType=office -f address.line1='1 Pier Rd' -f address.city=Boston -f address.region=MA -f address.postalCode=02110 -f address.country=US",
      ],
      update: ['appraisal props update ID -F yearBuilt=1998', 'appraisal props update ID --data \'{"name":"Harbor Point II"}\''],
      delete: ['appraisal props delete ID', 'appraisal props delete ID --yes   # in scripts'],
      import: [
        'appraisal props import properties.csv --match parcelNumber --dry-run',
        'appraisal props import properties.csv --match parcelNumber',
        'appraisal props import edited.csv --match id --results edited.results.csv',
      ],
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
    summary: 'Appraisal assignments and their linked properties',
    enums: { status: 'assignmentStatuses', reportType: 'reportTypes' },
    refers: { field: 'propertyIds', family: 'props' },
    examples: {
      list: [
        'appraisal assignments list --status in_progress',
        'appraisal assignments list --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 -o csv --out client-assignments.csv',
        'appraisal assignments list --updated-since 2026-01-01 -o ndjson | jq .number',
      ],
      get: [
        'appraisal assignments get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
        'appraisal assignments get ID -o json --fields number,status,propertyIds',
      ],
      create: [
        'appraisal assignments create --data @assignment.json',
        'appraisal assignments create -f clientId=CLIENT_ID -f reportType=appraisal_report -f dueDate=2026-03-31 -F fee.amount=3500 -f fee.currency=USD',
      ],
      update: [
        'appraisal assignments update ID -f status=accepted   # the service decides which changes are allowed',
        'appraisal assignments update ID -f dueDate=2026-04-15 -F fee.amount=4200 -f fee.currency=USD   # a fee is sent whole',
      ],
      delete: ['appraisal assignments delete ID', 'appraisal assignments delete ID --yes   # in scripts'],
      import: [
        'appraisal assignments import assignments.csv --match number --property-match parcelNumber',
        'appraisal assignments import assignments.ndjson --match number --dry-run',
      ],
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
    summary: 'Clients of the organization',
    enums: { clientType: 'clientTypes' },
    examples: {
      list: [
        'appraisal clients list --type lender --search harbor',
        'appraisal clients list -o csv --fields id,name,clientType,email --out clients.csv',
      ],
      get: ['appraisal clients get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10', 'appraisal clients get ID -o json | jq .address'],
      create: [
        "appraisal clients create -f name='First Harbor Bank' -f clientType=lender -f email=orders@firstharbor.example",
        'appraisal clients create --data @client.json',
      ],
      update: [
        'appraisal clients update ID -f phone=+1-617-555-0100',
        "appraisal clients update ID -f name='First Harbor Bank, N.A.' -f email=appraisals@firstharbor.example",
      ],
      delete: ['appraisal clients delete ID', 'appraisal clients delete ID --yes   # in scripts'],
      import: ['appraisal clients import clients.csv --match email --dry-run', 'appraisal clients import clients.ndjson --match email'],
    },
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
    summary: 'Contacts of a client',
    examples: {
      list: [
        'appraisal contacts list --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
        'appraisal contacts list --client CLIENT_ID -o csv --fields firstName,lastName,email',
      ],
      get: [
        'appraisal contacts get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
        'appraisal contacts get ID -o json --fields firstName,lastName,email',
      ],
      create: [
        'appraisal contacts create --client CLIENT_ID -f firstName=Dana -f lastName=Reyes -f email=dana.reyes@example.com',
        'appraisal contacts create --client CLIENT_ID --data @contact.json',
      ],
      update: ["appraisal contacts update ID -f title='Chief Appraiser'", 'appraisal contacts update ID -f phone=+1-617-555-0142'],
      delete: ['appraisal contacts delete ID', 'appraisal contacts delete ID --yes   # in scripts'],
      import: [
        'appraisal contacts import contacts.csv --client CLIENT_ID --match email',
        'appraisal contacts import contacts.csv --match email --dry-run',
      ],
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
    summary: 'Upload, download and attach files',
    creates: 'upload',
    examples: {
      list: [
        'appraisal files list --assignment 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
        'appraisal files list -o csv --fields id,name,size,attachments --out files.csv',
      ],
      get: [
        'appraisal files get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
        'appraisal files get ID -o json --fields name,size,sha256,attachments',
      ],
      delete: ['appraisal files delete ID', 'appraisal files delete ID --yes   # in scripts'],
    },
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

/** A family by its name or alias (`watch properties`), whatever it offers (callers that need records or a verb check for it). */
export function findFamily(name: string): ResourceFamily | undefined {
  return FAMILIES.find((family) => family.name === name || family.aliases?.includes(name));
}

/** The family whose record ids a field of this one holds (assignments' propertyIds: props). */
export function referredFamily(family: ResourceFamily): ResourceFamily | undefined {
  return family.refers && RESOURCES[family.refers.family];
}

/** Whether the family is a command noun of its own (`props`), not a verb of another (`ref designations`). */
export function isNoun(family: ResourceFamily): boolean {
  return family.command === family.name;
}

/** Whether `import` applies: records are created from JSON and changed in place. */
export function isImportable(family: ResourceFamily): boolean {
  return family.creates !== 'upload' && family.operations.create !== undefined && family.operations.update !== undefined;
}

/** The CLI's standard verbs of a family, in help order: the JSON verbs of its operations, and import where it applies. */
export function standardVerbsOf(family: ResourceFamily): Array<StandardVerb | 'import'> {
  const verbs: Array<StandardVerb | 'import'> = STANDARD_VERBS.filter(
    (verb) => family.operations[verb] !== undefined && !(verb === 'create' && family.creates === 'upload'),
  );
  if (isImportable(family)) verbs.push('import');
  return verbs;
}

/** The noun's line in the root help: the entry's summary, else `Properties: list, get, …`. */
export function familySummary(family: ResourceFamily): string {
  const label = family.view.label;
  return family.summary ?? `${label.charAt(0).toUpperCase()}${label.slice(1)}: ${standardVerbsOf(family).join(', ')}`;
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
