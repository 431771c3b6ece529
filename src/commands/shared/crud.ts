// get / create / update / delete for any resource family: validate ids and input before any
// request, call the service, print the record it answered with.
import { Command } from 'commander';
import type { ApiRecord } from '../../core/api-client.js';
import { action, examples, type Factory } from '../../core/command.js';
import { ContractError, UsageError } from '../../core/errors.js';
import { confirmDestructive } from '../../core/guards.js';
import { requireUuid } from '../../core/ids.js';
import { readRecordInput } from '../../core/record-input/index.js';
import { writeRecord } from '../../output/index.js';
import { calls } from '../../core/description/operations.js';
import { collectionTemplate, parentFamily, recordPath, recordTemplate, type ResourceFamily } from '../../core/resources.js';
import { collectionPath, parentFlag } from './resource.js';
import { CONFIRM_OPTIONS, OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';
import { checkRequestBody } from './validation.js';

interface InputOptions {
  data?: string;
  validate?: boolean;
  field?: string[];
  typedField?: string[];
  [parentOption: string]: unknown;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** API.md: every record has a string id. An answer without one broke the contract (exit 9). */
export function requireRecord(body: unknown, where: string): ApiRecord {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as { id?: unknown }).id === 'string') {
    return body as ApiRecord;
  }
  throw new ContractError(`${where}: the answer is not a record with a string id`, {
    hint: 'the service broke its published contract; report it with the request id from --verbose',
  });
}

/** --data / -f / -F, shared by create and update (and `api`). */
export function addRecordInputOptions(command: Command): Command {
  return command
    .option('-d, --data <json>', 'the record as JSON, @file.json, or - for stdin')
    .option('-f, --field <key=value>', 'set a string field (dotted paths allowed); repeatable', collect)
    .option('-F, --typed-field <key=value>', 'set a field to a JSON value (number, true, null, [..]); repeatable', collect)
    .option('--no-validate', "send the body even if it does not match the service's published schema");
}

async function readBody(ctx: Parameters<typeof readRecordInput>[0], options: InputOptions, verb: string) {
  const body = await readRecordInput(ctx, { data: options.data, fields: options.field, typedFields: options.typedField });
  if (Object.keys(body).length === 0) {
    throw new UsageError(`${verb} needs the record: pass --data '{...}', --data @file.json, --data -, or -f field=value`);
  }
  return body;
}

export function getVerb(factory: Factory, spec: ResourceFamily, usage: string[]): Command {
  const command = new Command('get').argument('<id>', `${spec.singular} id (UUID)`).description(`show one ${spec.singular}`);
  command.option('--validate', "check the record against the service's published schema (violations on stderr, exit 9)");
  calls(command, { method: 'GET', path: recordTemplate(spec) });
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, usage);
  return command.action(
    action<{ validate?: boolean }>(factory, async (ctx, [id], options) => {
      const checked = requireUuid(id, `${spec.singular} id`);
      const path = recordPath(spec, checked);
      const api = await ctx.api();
      const checker = options.validate ? await (await import('./validation.js')).recordChecker(ctx, path) : undefined;
      const record = requireRecord(await api.get(path), `GET ${path}`);
      checker?.check(record);
      await writeRecord(ctx, record, spec.view);
      checker?.finish();
    }),
  );
}

export function createVerb(factory: Factory, spec: ResourceFamily, usage: string[]): Command {
  const command = addRecordInputOptions(new Command('create').description(`create a ${spec.singular}`));
  const parent = parentFlag(spec);
  if (parent) command.option(parent, `the ${parentFamily(spec)?.singular} to create it for (required)`);
  calls(command, { method: 'POST', path: collectionTemplate(spec) });
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, usage);
  return command.action(
    action<InputOptions>(factory, async (ctx, _args, options) => {
      const path = collectionPath(spec, options, 'create');
      const body = await readBody(ctx, options, 'create');
      const api = await ctx.api();
      if (options.validate !== false) await checkRequestBody(ctx, 'POST', path, body);
      const record = requireRecord(await api.send('POST', path, body), `POST ${path}`);
      await writeRecord(ctx, record, spec.view);
    }),
  );
}

export function updateVerb(factory: Factory, spec: ResourceFamily, usage: string[]): Command {
  const command = addRecordInputOptions(
    new Command('update')
      .argument('<id>', `${spec.singular} id (UUID)`)
      .description(`change fields of a ${spec.singular} (partial update)`),
  );
  calls(command, { method: 'PATCH', path: recordTemplate(spec) });
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, usage);
  return command.action(
    action<InputOptions>(factory, async (ctx, [id], options) => {
      const checked = requireUuid(id, `${spec.singular} id`);
      const body = await readBody(ctx, options, 'update');
      const api = await ctx.api();
      if (options.validate !== false) await checkRequestBody(ctx, 'PATCH', recordPath(spec, checked), body);
      const record = requireRecord(await api.send('PATCH', recordPath(spec, checked), body), `PATCH ${recordPath(spec, checked)}`);
      await writeRecord(ctx, record, spec.view);
    }),
  );
}

export function deleteVerb(factory: Factory, spec: ResourceFamily, usage: string[]): Command {
  const command = new Command('delete').argument('<id>', `${spec.singular} id (UUID)`).description(`delete a ${spec.singular}`);
  calls(command, { method: 'DELETE', path: recordTemplate(spec) });
  takesOptions(command, ...SERVICE_OPTIONS, ...CONFIRM_OPTIONS);
  examples(command, usage);
  return command.action(
    action(factory, async (ctx, [id]) => {
      const checked = requireUuid(id, `${spec.singular} id`);
      await confirmDestructive(ctx, `delete ${spec.singular} ${checked}`);
      const api = await ctx.api();
      await api.send('DELETE', recordPath(spec, checked));
      ctx.io.notice(`Deleted ${spec.singular} ${checked}`);
    }),
  );
}
