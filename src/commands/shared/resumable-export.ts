// Which list exports are resumable, and the identity their checkpoint records: every export of a
// collection to `--out PATH` in a streaming format (json, ndjson, csv), unless it reads one --page.
// `--resume` continues an interrupted one, `--restart` throws its partial away.
import type { Command } from 'commander';
import type { Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import type { VerbOption } from '../../core/verb.js';
import { originOf } from '../../core/credentials/origin.js';
import { UsageError } from '../../core/errors.js';
import { openResumableExport, type ExportIdentity, type ResumableExport } from '../../output/index.js';

export interface ResumeFlags {
  resume?: boolean;
  restart?: boolean;
}

export const RESUME_OPTIONS: readonly VerbOption[] = [
  { flags: '--resume', description: 'continue an interrupted export to --out after its last complete page' },
  { flags: '--restart', description: 'throw away the partial export beside --out and start from the beginning' },
];

export function addResumeOptions(command: Command): Command {
  for (const option of RESUME_OPTIONS) command.option(option.flags, option.description);
  return command;
}

function filtersOf(query: Query): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    filters[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return filters;
}

/**
 * A resumable export for this list, or undefined when its output cannot be resumed (stdout, a
 * table, one --page). --resume/--restart where nothing can be resumed is a usage error.
 */
export async function resumableExport(
  ctx: Context,
  collection: string,
  query: Query,
  flags: ResumeFlags,
  expression: string | null = null,
): Promise<ResumableExport | undefined> {
  const asked = flags.resume ? '--resume' : flags.restart ? '--restart' : undefined;
  if (flags.resume && flags.restart) throw new UsageError('--resume and --restart cannot be used together');
  const plan = ctx.output;
  if (plan.outPath === undefined) {
    if (asked) throw new UsageError(`${asked} needs --out PATH: only an export to a file can be resumed`);
    return undefined;
  }
  if (ctx.globals.page !== undefined) {
    if (asked) throw new UsageError(`${asked} cannot be combined with --page: one page is not resumed`);
    return undefined;
  }
  // The path's own problems (a directory, a missing parent) first, then what its name says.
  await plan.target();
  const format = plan.format;
  if (format === 'table') {
    if (asked) throw new UsageError(`${asked} needs -o json, ndjson or csv: a table is not resumable`);
    return undefined;
  }
  const session = await ctx.session();
  const identity: ExportIdentity = {
    collection,
    filters: filtersOf(query),
    pageSize: ctx.globals.pageSize ?? null,
    fields: plan.fields ? [...plan.fields.names] : null,
    format,
    query: expression,
    origin: originOf(session.baseUrl),
    profile: session.profileName,
  };
  return openResumableExport(ctx, plan.resumable(flags.resume ? 'resume' : flags.restart ? 'restart' : 'auto'), identity);
}
