// `appraisal api METHOD PATH`: raw access to the published operations the command tree does not cover.
// The one-line summary is the registry's (commands/registry.ts); this is the declaration.
import { RECORD_INPUT_OPTIONS } from '../shared/crud.js';
import { isOperationId, operationHelp } from './operation.js';
import { runApi, type ApiOptions } from './run.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineNounCommand } from '../../core/verb.js';

export default defineNounCommand<ApiOptions>({
  arguments: [
    { name: 'METHOD', description: 'GET, HEAD, POST, PUT, PATCH, DELETE, or an operationId' },
    { name: 'PATH', description: 'path under the base URL (may carry ?query)' },
  ],
  options: [
    ...RECORD_INPUT_OPTIONS,
    {
      flags: '-H, --header <header>',
      description: 'extra header "name: value" (not the key); repeatable',
      repeatable: true,
    },
    { flags: '--all', description: 'GET every page of a collection, as `list` does' },
    { flags: '-i, --include', description: 'print the status and headers before the body' },
    { flags: '--strict', description: 'refuse (exit 12) an unpublished METHOD PATH' },
    { flags: '--path-param <name=value>', description: 'with an operationId: a path value; repeatable', repeatable: true },
    { flags: '--list', description: 'print the published operations and exit' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...PAGING_OPTIONS, ...CONFIRM_OPTIONS],
  calls: 'per-request',
  examples: [
    'appraisal api GET /api/properties -f q=harbor --page-size 5',
    'appraisal api GET /api/properties --all -o ndjson > properties.ndjson',
    'appraisal api POST /api/clients --data \'{"name":"Acme Bank","clientType":"lender"}\'',
    'appraisal api PATCH /api/properties/ID -F yearBuilt=1998',
    'appraisal api -i GET /api/keys/current',
    'appraisal api --list',
    'appraisal api getProperty --path-param id=ID',
    'appraisal api listProperties --help',
  ],
  notes:
    'For GET and HEAD, -f/-F become query parameters; for other methods they build the JSON body.\n' +
    'A METHOD PATH missing from the published OpenAPI document is internal: a warning, or with --strict a refusal.\n' +
    '`appraisal api OPERATION_ID --help` describes that operation from the service description.',
  // `api OPERATION_ID --help`: that operation's summary and parameters.
  help: async (ctx, args) => (args.length === 1 && isOperationId(args) ? operationHelp(ctx, args[0]!) : undefined),
  run: (ctx, args, options) => runApi(ctx, args, options),
});
