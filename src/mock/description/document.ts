// The published description the mock serves, in two variants:
// - `standard`: openapi.json at the project root (bundled at build time) at GET /api/openapi.json;
// - `alternative`: a deployment whose description differs from our model, for the CLI's binding
//   tests: assignments under /api/appraisal-assignments, `listFiles` removed, designations answered
//   as `{success, data: [...]}` without pages, an extra `yearBuiltFrom` filter on properties, and the
//   document moved to /api/v2/openapi.json, announced by an RFC 8631 Link header on every answer.
// Both carry an ETag and answer a matching If-None-Match with 304.
import { createHash } from 'node:crypto';
import openapi from '../../../openapi.json' with { type: 'json' };
import type { Handler } from '../http/request-context.js';

export type DescriptionVariant = 'standard' | 'alternative';
export const DESCRIPTION_VARIANTS: readonly DescriptionVariant[] = ['standard', 'alternative'];

export const OPENAPI_DOCUMENT: unknown = openapi;

export const ALTERNATIVE_DESCRIPTION_PATH = '/api/v2/openapi.json';
export const MOVED_ASSIGNMENTS = '/api/appraisal-assignments';

type Json = Record<string, unknown>;

function alternativeDocument(): Json {
  const document = structuredClone(openapi) as unknown as Json;
  const paths = document.paths as Record<string, Json>;
  const moved: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    if (path === '/api/openapi.json') moved[ALTERNATIVE_DESCRIPTION_PATH] = item;
    else if (path.startsWith('/api/assignments')) moved[`${MOVED_ASSIGNMENTS}${path.slice('/api/assignments'.length)}`] = item;
    else moved[path] = item;
  }
  delete (moved['/api/files'] as Json).get;
  const designations = moved['/api/reference/designations']!.get as Json;
  designations.parameters = [];
  designations.responses = {
    ...(designations.responses as Json),
    200: {
      description: 'Every designation, in one answer',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'data'],
            properties: { success: { type: 'boolean' }, data: { type: 'array', items: { $ref: '#/components/schemas/Designation' } } },
          },
        },
      },
    },
  };
  const listProperties = moved['/api/properties']!.get as Json;
  listProperties.parameters = [
    ...(listProperties.parameters as unknown[]),
    {
      name: 'yearBuiltFrom',
      in: 'query',
      required: false,
      description: 'only properties built in or after this year',
      schema: { type: 'integer' },
    },
  ];
  document.paths = moved;
  (document.info as Json).version = '0.2.0-alternative';
  return document;
}

function served(document: unknown) {
  const data = Buffer.from(JSON.stringify(document));
  return { data, etag: `"${createHash('sha256').update(data).digest('hex').slice(0, 16)}"` };
}

const STANDARD = served(openapi);
let alternative: ReturnType<typeof served> | undefined;

function documentHandler(document: () => ReturnType<typeof served>): Handler {
  return (ctx) => {
    const { etag, data } = document();
    const headers = { etag, 'cache-control': 'no-cache' };
    if (ctx.req.headers['if-none-match'] === etag) return { status: 304, headers, body: { kind: 'empty' } };
    return { status: 200, headers, body: { kind: 'bytes', data, contentType: 'application/json; charset=utf-8' } };
  };
}

export const getOpenApiDocument: Handler = documentHandler(() => STANDARD);
export const getAlternativeDocument: Handler = documentHandler(() => (alternative ??= served(alternativeDocument())));

/** The handler publishing a description a test gave the mock (its model's), or openapi.json's. */
export function documentHandlerFor(document: unknown): Handler {
  if (document === OPENAPI_DOCUMENT) return getOpenApiDocument;
  const published = served(document);
  return documentHandler(() => published);
}
