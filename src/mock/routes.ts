// Every operation the mock serves under /api: method, path template, operationId (as in
// openapi.json), what the caller needs, and the handler. The OpenAPI test compares this table with
// openapi.json in both directions.
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
import { getOpenApiDocument } from './description/document.js';
import { createProperty, deleteProperty, getProperty, listProperties, updateProperty } from './handlers/properties.js';
import { getReferenceEnums, listDesignations } from './handlers/reference.js';
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

export const API_ROUTES: readonly MockRoute[] = [
  route('GET', '/api/openapi.json', 'getOpenApiDocument', 'public', getOpenApiDocument),

  route('GET', '/api/properties', 'listProperties', 'properties:read', listProperties),
  route('POST', '/api/properties', 'createProperty', 'properties:write', createProperty),
  route('GET', '/api/properties/{id}', 'getProperty', 'properties:read', getProperty),
  route('PATCH', '/api/properties/{id}', 'updateProperty', 'properties:write', updateProperty),
  route('DELETE', '/api/properties/{id}', 'deleteProperty', 'properties:delete', deleteProperty),

  route('GET', '/api/assignments', 'listAssignments', 'assignments:read', listAssignments),
  route('POST', '/api/assignments', 'createAssignment', 'assignments:write', createAssignment),
  route('GET', '/api/assignments/{id}', 'getAssignment', 'assignments:read', getAssignment),
  route('PATCH', '/api/assignments/{id}', 'updateAssignment', 'assignments:write', updateAssignment),
  route('DELETE', '/api/assignments/{id}', 'deleteAssignment', 'assignments:delete', deleteAssignment),
  route('GET', '/api/assignments/{id}/properties', 'listAssignmentProperties', 'assignments:read', listAssignmentProperties),
  route('PUT', '/api/assignments/{id}/properties/{propertyId}', 'linkAssignmentProperty', 'assignments:write', linkAssignmentProperty),
  route(
    'DELETE',
    '/api/assignments/{id}/properties/{propertyId}',
    'unlinkAssignmentProperty',
    'assignments:write',
    unlinkAssignmentProperty,
  ),

  route('GET', '/api/clients', 'listClients', 'clients:read', listClients),
  route('POST', '/api/clients', 'createClient', 'clients:write', createClient),
  route('GET', '/api/clients/{id}', 'getClient', 'clients:read', getClient),
  route('PATCH', '/api/clients/{id}', 'updateClient', 'clients:write', updateClient),
  route('DELETE', '/api/clients/{id}', 'deleteClient', 'clients:delete', deleteClient),
  route('GET', '/api/clients/{id}/contacts', 'listClientContacts', 'clients:read', listClientContacts),
  route('POST', '/api/clients/{id}/contacts', 'createClientContact', 'clients:write', createClientContact),
  route('GET', '/api/contacts/{id}', 'getContact', 'clients:read', getContact),
  route('PATCH', '/api/contacts/{id}', 'updateContact', 'clients:write', updateContact),
  route('DELETE', '/api/contacts/{id}', 'deleteContact', 'clients:delete', deleteContact),

  route('POST', '/api/files', 'uploadFile', 'files:write', uploadFile),
  route('GET', '/api/files', 'listFiles', 'files:read', listFiles),
  route('GET', '/api/files/{id}', 'getFile', 'files:read', getFile),
  route('GET', '/api/files/{id}/content', 'downloadFile', 'files:read', downloadFile),
  route('POST', '/api/files/{id}/attachments', 'attachFile', 'files:write', attachFile),
  route('DELETE', '/api/files/{id}', 'deleteFile', 'files:delete', deleteFile),

  route('GET', '/api/reference/enums', 'getReferenceEnums', 'reference:read', getReferenceEnums),
  route('GET', '/api/reference/designations', 'listDesignations', 'reference:read', listDesignations),

  route('GET', '/api/keys', 'listApiKeys', 'keys:admin', listKeys),
  route('POST', '/api/keys', 'createApiKey', 'keys:admin', createApiKey),
  route('GET', '/api/keys/current', 'getCurrentApiKey', 'any-key', getCurrentApiKey),
  route('GET', '/api/keys/{id}', 'getApiKey', 'keys:admin', getApiKey),
  route('DELETE', '/api/keys/{id}', 'revokeApiKey', 'keys:admin', revokeApiKey),
];
