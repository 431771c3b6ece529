// `<noun> list` for every collection: auto-pages through paginate(), streams to the chosen format,
// shows progress on a terminal and reports the export's integrity warnings.
import { Command } from 'commander';
import type { ApiRecord, PaginateSummary, Query } from '../../core/api-client.js';
import { action, examples, type Factory } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { createProgress, writeRecords, type View } from '../../output/index.js';
import { filterQuery } from './query.js';
import type { ResourceSpec } from './resource.js';

/** Stream every record of a collection to the output; the one list runner all commands share. */
export async function listCollection(ctx: Context, path: string, query: Query, view: View): Promise<void> {
  const api = await ctx.api();
  const progress = createProgress(ctx, view.label);
  const { globals } = ctx;
  const pages = api.paginate(path, {
    query,
    page: globals.page,
    pageSize: globals.pageSize,
    maxItems: globals.maxItems,
    concurrency: globals.concurrency,
    allowPartial: globals.allowPartial,
    signal: ctx.signal,
    onProgress: ({ fetched, total }) => progress.update(fetched, total),
  });
  async function* records(): AsyncGenerator<ApiRecord> {
    const summary: PaginateSummary = yield* pages;
    progress.stop();
    for (const warning of summary.warnings) ctx.io.warn(warning);
  }
  try {
    await writeRecords(ctx, records(), view);
  } finally {
    progress.stop();
  }
}

export function listVerb(factory: Factory, spec: ResourceSpec, usage: string[]): Command {
  const command = new Command('list').description(`list ${spec.view.label} (every page, streamed)`);
  for (const filter of spec.filters ?? []) command.option(filter.flags, filter.description);
  examples(command, usage);
  return command.action(
    action<Record<string, unknown>>(factory, async (ctx, _args, options) => {
      await listCollection(ctx, spec.path, filterQuery(spec.filters ?? [], options), spec.view);
    }),
  );
}
