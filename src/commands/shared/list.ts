// `<noun> list` for every collection, and a read-only collection under its own verb name, declared:
// their options, the operation they call, their examples. What a list runs is one pipe, the list's
// records (list-records.ts: listCollection).
import { requireUuid } from '../../core/ids.js';
import type { View } from '../../output/index.js';
import { fillPath } from '../../core/description/operations.js';
import { filterQuery, paramQuery } from './query.js';
import { listCollection, type ListFlags } from './list-records.js';
import { collectionTemplate, parentFamily, type ResourceFamily } from '../../core/resources.js';
import { collectionPath, parentFlag } from './resource.js';
import { CSV_OPTIONS, OUTPUT_OPTIONS, PAGING_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { OUTPUT_FLAG_OPTIONS } from '../../core/output-flags.js';
import { defineVerb, type Verb, type VerbOption } from '../../core/verb.js';

/** --resume, --restart, --split-*, --wide (read by the output plan) and --query: the options of every list that exports a collection. */
export const LIST_OPTIONS: readonly VerbOption[] = [
  ...OUTPUT_FLAG_OPTIONS,
  {
    flags: '--query <expression>',
    description: 'JMESPath filter/projection applied to each record while streaming (--max-items counts its results)',
  },
];

export function listVerb(spec: ResourceFamily, examples: readonly string[]): Verb {
  const parent = parentFlag(spec);
  const flagOf = (param: string) => {
    const filter = spec.filters.find((candidate) => candidate.param === param);
    return filter ? `--${/--([a-z0-9-]+)/i.exec(filter.flags)?.[1]}` : `--param ${param}`;
  };
  return defineVerb<Record<string, unknown>>({
    name: 'list',
    tool: 'read',
    lists: true,
    summary: `list ${spec.view.label} (every page, streamed)`,
    options: [
      ...(parent
        ? [{ flags: parent, description: `the ${parentFamily(spec)?.singular} whose ${spec.view.label} to list`, required: true }]
        : []),
      ...spec.filters.flatMap((filter) => [
        { flags: filter.flags, description: filter.description, param: filter.param },
        // The old spelling keeps working, out of help.
        ...(filter.alias
          ? [{ flags: filter.flags.replace(/^--[\w-]+/, filter.alias), description: filter.description, hidden: true }]
          : []),
      ]),
      {
        flags: '--param <name=value>',
        description: 'any other query parameter the service publishes for this list; repeatable',
        repeatable: true,
      },
      { flags: '--validate', description: "check every record against the service's published schema (violations on stderr, exit 9)" },
      ...LIST_OPTIONS,
    ],
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CSV_OPTIONS, ...PAGING_OPTIONS],
    calls: [{ method: 'GET', path: collectionTemplate(spec), query: spec.filters.map((filter) => filter.param) }],
    examples,
    async run(ctx, _args, options) {
      const path = collectionPath(spec, options, 'list');
      const filters = filterQuery(spec.filters, options);
      const query = { ...filters, ...paramQuery(options.param as string[] | undefined, filters, flagOf) };
      await listCollection(ctx, path, query, spec.view, { ...(options as ListFlags), flagOf, validate: options.validate === true });
    },
  });
}

export interface CollectionVerbSpec {
  /** The verb: `designations`, `properties`. */
  name: string;
  description: string;
  /** Collection path; a `{id}` placeholder makes the verb take that record's id as its argument. */
  path: string;
  /** What `{id}` names, for the argument's help and its check: `assignment`. */
  parent?: string;
  view: View;
}

/** A read-only collection under its own verb name (`ref designations`, `assignments properties ID`). */
export function collectionVerb(spec: CollectionVerbSpec, examples: readonly string[]): Verb {
  return defineVerb<ListFlags>({
    name: spec.name,
    tool: 'read',
    lists: true,
    summary: spec.description,
    arguments: spec.parent ? [{ name: 'id', description: `${spec.parent} id (UUID)`, required: true }] : [],
    options: LIST_OPTIONS,
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS, ...CSV_OPTIONS, ...PAGING_OPTIONS],
    calls: [{ method: 'GET', path: spec.path }],
    examples,
    async run(ctx, [id], options) {
      const path = spec.parent ? fillPath(spec.path, { id: requireUuid(id, `${spec.parent} id`) }) : spec.path;
      await listCollection(ctx, path, {}, spec.view, options);
    },
  });
}
