// Every operation the mock serves under /api: method, path template, operationId (as in
// openapi.json), what the caller needs, and the handler. A family's standard operations (list, get,
// create, update, delete) come from the service model (src/model/families.ts: path, operationId,
// scope) with the handler FAMILY_HANDLERS names; the others are listed here. The OpenAPI test
// compares this table with openapi.json in both directions.
import { FAMILIES, familyOperations, type ResourceFamily, type StandardVerb } from '../model/families.js';
import { REFERENCE_ENUMS_PATH } from '../model/reference.js';
import type { Permission } from './auth/scopes.js';
import {
  createAssignment,
  deleteAssignment,
  getAssignment,
  linkAssignmentProperty,
  listAssignmentProperties,
  listAssignments,
  unlinkAssignmentProperty,
  updateAssignment,
} from './handlers/assignments.js';
import { createClient, deleteClient, getClient, listClients, updateClient } from './handlers/clients.js';
import { createClientContact, deleteContact, getContact, listClientContacts, updateContact } from './handlers/contacts.js';
import { attachFile, deleteFile, downloadFile, getFile, listFiles, uploadFile } from './handlers/files.js';
import { createApiKey, getApiKey, getCurrentApiKey, listKeys, revokeApiKey } from './handlers/keys.js';
import { documentHandlerFor, OPENAPI_DOCUMENT } from './description/document.js';
import { createProperty, deleteProperty, getProperty, listProperties, updateProperty } from './handlers/properties.js';
import { getReferenceEnums, listDesignations } from './handlers/reference.js';
import type { StandardFamilySeed } from './data/seeded-from-schema.js';
import { standardFamilySeed, standardHandlers } from './handlers/standard-family.js';
import type { Handler } from './http/request-context.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** public: no key needed; any-key: any valid key; otherwise the permission the key's scopes must grant. */
export type Access = 'public' | 'any-key' | Permission;

export interface MockRoute {
  method: HttpMethod;
  /** OpenAPI-style template, e.g. /api/properties/{id}. */
  path: string;
  operationId: string;
  access: Access;
  handler: Handler;
}

const route = (method: HttpMethod, path: string, operationId: string, access: Access, handler: Handler): MockRoute => ({
  method,
  path,
  operationId,
  access,
  handler,
});

/** The families with handlers of their own, and those handlers (the model says which operations a family has). */
const FAMILY_HANDLERS: Readonly<Partial<Record<string, Partial<Record<StandardVerb, Handler>>>>> = {
  props: { list: listProperties, get: getProperty, create: createProperty, update: updateProperty, delete: deleteProperty },
  assignments: { list: listAssignments, get: getAssignment, create: createAssignment, update: updateAssignment, delete: deleteAssignment },
  clients: { list: listClients, get: getClient, create: createClient, update: updateClient, delete: deleteClient },
  contacts: { list: listClientContacts, get: getContact, create: createClientContact, update: updateContact, delete: deleteContact },
  files: { list: listFiles, get: getFile, create: uploadFile, delete: deleteFile },
  designations: { list: listDesignations },
};

/** The families of a model that the mock serves generically (no handlers of their own). */
function genericFamilies(families: readonly ResourceFamily[]): ResourceFamily[] {
  return families.filter((family) => FAMILY_HANDLERS[family.name] === undefined);
}

/** What the state needs to seed the generically served families of a model. */
export function standardFamilySeeds(families: readonly ResourceFamily[], document: unknown): StandardFamilySeed[] {
  return genericFamilies(families).map((family) => standardFamilySeed(family, document));
}

/** The standard operations of every family of the model, with their handlers. */
function familyRoutes(families: readonly ResourceFamily[], document: unknown): MockRoute[] {
  return families.flatMap((family) => {
    const handlers = FAMILY_HANDLERS[family.name] ?? standardHandlers(family, document);
    return familyOperations(family).map((operation) => {
      const handler = handlers[operation.verb];
      if (!handler) throw new Error(`the mock has no handler for ${family.name} ${operation.verb}`);
      return route(operation.method, operation.path, operation.operationId, `${family.scope}:${operation.level}`, handler);
    });
  });
}

/** Every route of the mock for a model and the description it publishes (tests pass their own). */
export function apiRoutes(families: readonly ResourceFamily[], document: unknown): MockRoute[] {
  return [
    route('GET', '/api/openapi.json', 'getOpenApiDocument', 'public', documentHandlerFor(document)),
    ...familyRoutes(families, document),
    ...OTHER_ROUTES,
  ];
}

/** The operations beyond the families' standard ones. */
const OTHER_ROUTES: readonly MockRoute[] = [
  route('GET', '/api/assignments/{id}/properties', 'listAssignmentProperties', 'assignments:read', listAssignmentProperties),
  route('PUT', '/api/assignments/{id}/properties/{propertyId}', 'linkAssignmentProperty', 'assignments:write', linkAssignmentProperty),
  route(
    'DELETE',
    '/api/assignments/{id}/properties/{propertyId}',
    'unlinkAssignmentProperty',
    'assignments:write',
    unlinkAssignmentProperty,
  ),

  route('GET', '/api/files/{id}/content', 'downloadFile', 'files:read', downloadFile),
  route('POST', '/api/files/{id}/attachments', 'attachFile', 'files:write', attachFile),

  route('GET', REFERENCE_ENUMS_PATH, 'getReferenceEnums', 'reference:read', getReferenceEnums),

  route('GET', '/api/keys', 'listApiKeys', 'keys:admin', listKeys),
  route('POST', '/api/keys', 'createApiKey', 'keys:admin', createApiKey),
  route('GET', '/api/keys/current', 'getCurrentApiKey', 'any-key', getCurrentApiKey),
  route('GET', '/api/keys/{id}', 'getApiKey', 'keys:admin', getApiKey),
  route('DELETE', '/api/keys/{id}', 'revokeApiKey', 'keys:admin', revokeApiKey),
];

/** The routes of the real model and openapi.json. */
export const API_ROUTES: readonly MockRoute[] = apiRoutes(FAMILIES, OPENAPI_DOCUMENT);
