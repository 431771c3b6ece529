// `appraisal api METHOD PATH`: raw access to the published operations the command tree does not cover.
import { Command, Option } from 'commander';
import { action, examples, fullHelp, type Factory } from '../../core/command.js';
import { addRecordInputOptions } from '../shared/crud.js';
import { isOperationId, operationHelp } from './operation.js';
import { runApi, type ApiOptions } from './run.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export default function apiCommand(factory: Factory): Command {
  const command = addRecordInputOptions(
    new Command('api')
      .description('Raw access to published operations: one request, or every page of a collection with --all')
      .argument('[METHOD]', 'GET, HEAD, POST, PUT, PATCH or DELETE (any case), or an operationId of the service description')
      .argument('[PATH]', 'path under the base URL, e.g. /api/properties/ID (may carry ?query)'),
  )
    .option('-H, --header <header>', 'extra request header "name: value"; repeatable (never x-api-key or authorization)', collect)
    .option('--all', 'GET every page of a collection through the same paging as `list` (honours --max-items, -o)')
    .option('-i, --include', 'print the HTTP status and response headers before the body')
    .option('--strict', 'refuse (exit 2) a METHOD PATH that is not a published operation')
    .option('--path-param <name=value>', 'with an operationId: a value for its path template; repeatable', collect)
    .addOption(new Option('--list', 'print the published operations and exit'))
    // Our own --help: `api OPERATION_ID --help` describes that operation from the service's description.
    .helpOption(false)
    .option('-h, --help', 'display help for command (with an operationId: its summary and parameters)');
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...PAGING_OPTIONS, ...CONFIRM_OPTIONS);
  command.addHelpText(
    'after',
    '\nFor GET and HEAD, -f/-F become query parameters; for other methods they build the JSON body.\n' +
      'A METHOD PATH missing from the published OpenAPI document is internal: a warning, or with --strict a refusal.\n',
  );
  examples(command, [
    'appraisal api GET /api/properties -f q=harbor --page-size 5',
    'appraisal api GET /api/properties --all -o ndjson > properties.ndjson',
    'appraisal api POST /api/clients --data \'{"name":"Acme Bank","clientType":"Lender"}\'',
    'appraisal api PATCH /api/properties/ID -F yearBuilt=1998',
    'appraisal api -i HEAD /api/keys/current',
    'appraisal api --list',
    'appraisal api listProperties --all -o csv',
    'appraisal api getProperty --path-param id=ID',
    'appraisal api listProperties --help',
  ]);
  return command.action(
    action<ApiOptions>(factory, async (ctx, args, options) => {
      if (!options.help) return runApi(ctx, args, options);
      if (args.length === 1 && isOperationId(args)) ctx.io.stdout.write(await operationHelp(ctx, args[0]!));
      else ctx.io.stdout.write(fullHelp(command));
    }),
  );
}
