// GET /api/openapi.json: the published description, the same document as openapi.json at the root
// of the project (bundled at build time).
import openapi from '../../../openapi.json' with { type: 'json' };
import type { Handler } from '../http/request-context.js';

export const OPENAPI_DOCUMENT: unknown = openapi;
const serialized = Buffer.from(JSON.stringify(openapi));

export const getOpenApiDocument: Handler = () => ({ status: 200, body: { kind: 'bytes', data: serialized, contentType: 'application/json; charset=utf-8' } });
