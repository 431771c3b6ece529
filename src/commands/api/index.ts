// `appraisal api METHOD PATH`: raw access to the published operations the command tree does not cover.
import { Command, Option } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import { addRecordInputOptions } from '../shared/crud.js';
import { runApi, type ApiOptions } from './run.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export default function apiCommand(factory: Factory): Command {
  const command = addRecordInputOptions(
    new Command('api')
      .description('Raw access to published operations: one request, or every page of a collection with --all')
      .argument('[METHOD]', 'GET, HEAD, POST, PUT, PATCH or DELETE (any case)')
      .argument('[PATH]', 'path under the base URL, e.g. /api/properties/ID (may carry ?query)'),
  )
    .option('-H, --header <header>', 'extra request header "name: value"; repeatable (never x-api-key or authorization)', collect)
    .option('--all', 'GET every page of a collection through the same paging as `list` (honours --max-items, -o)')
    .option('-i, --include', 'print the HTTP status and response headers before the body')
    .option('--spec <url|path>', "check against this OpenAPI document instead of the service's /api/openapi.json")
    .option('--strict', 'refuse (exit 2) a METHOD PATH that is not a published operation')
    .addOption(new Option('--list', 'print the published operations and exit'));
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...PAGING_OPTIONS, ...CONFIRM_OPTIONS);
  command.addHelpText(
    'after',
    '\nFor GET and HEAD, -f/-F become query parameters; for other methods they build the JSON body.\n' +
      'A METHOD PATH missing from the published OpenAPI document is internal: a warning, or with --strict a refusal.\n',
  );
  examples(command, [
    'appraisal api GET /api/properties -f q=harbor --page-size 5',
    'appraisal api GET /api/properties --all -o ndjson > properties.ndjson',
    "appraisal api POST /api/clients --data '{\"name\":\"Acme Bank\",\"clientType\":\"Lender\"}'",
    'appraisal api PATCH /api/properties/ID -F yearBuilt=1998',
    'appraisal api -i HEAD /api/keys/current',
    'appraisal api --list',
  ]);
  return command.action(action<ApiOptions>(factory, (ctx, args, options) => runApi(ctx, args, options)));
}
