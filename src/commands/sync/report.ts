// What a run says: one line per family on stderr (`properties: 12 new, 3 changed, 0 gone
// (incremental since …)`), and with -o json the same as one JSON object on stdout.
import type { Context } from '../../core/context.js';
import type { FamilyResult } from './family-sync.js';

export interface SyncSummary {
  target: string;
  schema: string;
  dryRun: boolean;
  families: Record<string, FamilyResult>;
}

/**
 * After the run that made a DuckDB file's tables, a person at a terminal is told how to read them
 * (`querying`: the `sql` command line for this file and schema); scripts and logs are not.
 */
function nextStep(ctx: Context, summary: SyncSummary, querying: string | undefined): void {
  const made = Object.values(summary.families).some((family) => family.tablesCreated.includes(family.table));
  if (querying === undefined || summary.dryRun || !made || !ctx.io.stderrIsTTY) return;
  const first = Object.keys(summary.families)[0]!;
  ctx.io.notice(`query them: appraisal sql "SELECT count(*) FROM ${first}"${querying}`);
}

function line(result: FamilyResult, dryRun: boolean): string {
  const counts = `${result.new} new, ${result.changed} changed, ${result.unchanged} unchanged, ${result.gone} gone`;
  const how = result.mode === 'incremental' ? `incremental since ${result.since}` : 'full';
  const added = [
    ...(result.tablesCreated.length > 0 ? [`${dryRun ? 'would create' : 'created'} ${result.tablesCreated.join(', ')}`] : []),
    ...(result.columnsAdded.length > 0 ? [`${dryRun ? 'columns to add' : 'added columns'}: ${result.columnsAdded.join(', ')}`] : []),
  ];
  return `${result.table}: ${dryRun ? 'would write ' : ''}${counts} (${how})${added.length > 0 ? `; ${added.join('; ')}` : ''}`;
}

export function reportFamily(ctx: Context, result: FamilyResult, dryRun: boolean): void {
  ctx.io.notice(line(result, dryRun));
}

export function reportRun(ctx: Context, summary: SyncSummary, json: boolean, querying?: string): void {
  if (json) ctx.io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (summary.dryRun) ctx.io.notice(`dry run: nothing was written to ${summary.target}`);
  else if (!json) nextStep(ctx, summary, querying);
}
