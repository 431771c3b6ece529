// get / create / update / delete for any resource family, declared once from the resource table:
// validate ids and input before any request, call the service, print the record it answered with.
import type { ApiRecord } from '../../core/api-client.js';
import { ContractError, UsageError } from '../../core/errors.js';
import { confirmDestructive } from '../../core/guards.js';
import { requireUuid } from '../../core/ids.js';
import { readRecordInput } from '../../core/record-input/index.js';
import { recordName } from './record-name.js';
import { writeRecord } from '../../output/index.js';
import { collectionTemplate, parentFamily, recordPath, recordTemplate, type ResourceFamily } from '../../core/resources.js';
import { collectionPath, parentFlag } from './resource.js';
import { CONFIRM_OPTIONS, CSV_OPTIONS, OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb, type Verb, type VerbOption } from '../../core/verb.js';
import { checkedOperation, checkRequestBody, recordChecker } from './validation.js';

interface InputOptions {
  data?: string;
  validate?: boolean;
  field?: string[];
  typedField?: string[];
  [parentOption: string]: unknown;
}

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
export const RECORD_INPUT_OPTIONS: readonly VerbOption[] = [
  { flags: '-d, --data <json>', description: 'the record as JSON, @file.json, or - for stdin' },
  { flags: '-f, --field <key=value>', description: 'set a string field (dotted paths allowed); repeatable', repeatable: true },
  {
    flags: '-F, --typed-field <key=value>',
    description: 'set a field to a JSON value (number, true, null, [..]); repeatable',
    repeatable: true,
  },
  { flags: '--no-validate', description: "send the body even if it does not match the service's published schema" },
];

async function readBody(ctx: Parameters<typeof readRecordInput>[0], options: InputOptions, verb: string) {
  const body = await readRecordInput(ctx, { data: options.data, fields: options.field, typedFields: options.typedField });
  if (Object.keys(body).length === 0) {
    throw new UsageError(`${verb} needs the record: pass --data '{...}', --data @file.json, --data -, or -f field=value`);
  }
  return body;
}

const idArgument = (spec: ResourceFamily) => ({ name: 'id', description: `${spec.singular} id (UUID)`, required: true });

export function getVerb(spec: ResourceFamily, examples: readonly string[]): Verb {
  return defineVerb<{ validate?: boolean }>({
    name: 'get',
    writesOne: true,
    tool: 'read',
    summary: `show one ${spec.singular}`,
    arguments: [idArgument(spec)],
    options: [
      { flags: '--validate', description: "check the record against the service's published schema (violations on stderr, exit 9)" },
    ],
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CSV_OPTIONS],
    calls: [{ method: 'GET', path: recordTemplate(spec) }],
    examples,
    async run(ctx, [id], options) {
      const checked = requireUuid(id, `${spec.singular} id`);
      const path = recordPath(spec, checked);
      const api = await ctx.api();
      const checker = options.validate ? await recordChecker(ctx.io, await checkedOperation(api, 'GET', path)) : undefined;
      const record = requireRecord(await api.get(path), `GET ${path}`);
      checker?.check(record);
      await writeRecord(ctx, record, spec.view);
      checker?.finish();
    },
  });
}

export function createVerb(spec: ResourceFamily, examples: readonly string[]): Verb {
  const parent = parentFlag(spec);
  return defineVerb<InputOptions>({
    name: 'create',
    writesOne: true,
    tool: 'write',
    summary: `create a ${spec.singular}`,
    options: [
      ...RECORD_INPUT_OPTIONS,
      ...(parent ? [{ flags: parent, description: `the ${parentFamily(spec)?.singular} to create it for`, required: true }] : []),
    ],
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CSV_OPTIONS],
    calls: [{ method: 'POST', path: collectionTemplate(spec) }],
    examples,
    async run(ctx, _args, options) {
      const path = collectionPath(spec, options, 'create');
      const body = await readBody(ctx, options, 'create');
      const api = await ctx.api();
      if (options.validate !== false) await checkRequestBody(ctx, 'POST', path, body, options.field);
      const record = requireRecord(await api.send('POST', path, body), `POST ${path}`);
      await writeRecord(ctx, record, spec.view);
    },
  });
}

export function updateVerb(spec: ResourceFamily, examples: readonly string[]): Verb {
  return defineVerb<InputOptions>({
    name: 'update',
    writesOne: true,
    tool: 'write',
    summary: `change fields of a ${spec.singular} (partial update)`,
    arguments: [idArgument(spec)],
    options: RECORD_INPUT_OPTIONS,
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CSV_OPTIONS],
    calls: [{ method: 'PATCH', path: recordTemplate(spec) }],
    examples,
    async run(ctx, [id], options) {
      const checked = requireUuid(id, `${spec.singular} id`);
      const body = await readBody(ctx, options, 'update');
      const api = await ctx.api();
      const path = recordPath(spec, checked);
      if (options.validate !== false) await checkRequestBody(ctx, 'PATCH', path, body, options.field);
      const record = requireRecord(await api.send('PATCH', path, body), `PATCH ${path}`);
      await writeRecord(ctx, record, spec.view);
    },
  });
}

export function deleteVerb(spec: ResourceFamily, examples: readonly string[]): Verb {
  return defineVerb({
    name: 'delete',
    summary: `delete a ${spec.singular}`,
    arguments: [idArgument(spec)],
    takes: [...SERVICE_OPTIONS, ...CONFIRM_OPTIONS],
    calls: [{ method: 'DELETE', path: recordTemplate(spec) }],
    examples,
    async run(ctx, [id]) {
      const checked = requireUuid(id, `${spec.singular} id`);
      await confirmDestructive(ctx, `delete ${spec.singular} ${checked}`, undefined, () => recordName(ctx, spec, checked));
      const api = await ctx.api();
      await api.send('DELETE', recordPath(spec, checked));
      ctx.io.notice(`Deleted ${spec.singular} ${checked}`);
    },
  });
}
