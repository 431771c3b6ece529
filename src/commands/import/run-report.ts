// What an import says when it ends: the progress line while it runs (rows, rate, ETA), a dry run's
// plan on stdout (counts beside their words, then the updates with the fields that change and the
// invalid rows), a run's summary (or one JSON object with -o json), where the files are, and the
// partial-import error (exit 22) when rows were not imported.
import type { Context } from '../../core/context.js';
import { RowsNotImportedError } from '../../core/errors.js';
import type { ResourceFamily } from '../../core/resources.js';
import { shellWord } from '../../core/shell-word.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { formatCount } from '../../output/index.js';
import type { ImportFlags } from './import-flags.js';
import type { RowPlan } from './row-result.js';
import type { Tally } from './tally.js';

/** Plan lines shown per kind by a dry run; the rest are counted (all are in --results). */
const SHOWN = 50;

/** The first SHOWN lines of each kind, and how many there were (a dry run of 200,000 rows keeps 100 lines). */
export interface PlanDetails {
  updates: string[];
  invalid: string[];
  updateCount: number;
  invalidCount: number;
}

export function rateText(done: number, total: number | undefined, startedAt: number, label: string): string {
  const seconds = (performance.now() - startedAt) / 1000;
  const rate = seconds > 0 ? done / seconds : 0;
  const head =
    total === undefined ? `Imported ${formatCount(done)} ${label}` : `Imported ${formatCount(done)} / ${formatCount(total)} ${label}`;
  const perSecond = rate > 0 ? `, ${formatCount(Math.round(rate))}/s` : '';
  if (total === undefined || rate <= 0 || done >= total) return `${head}${perSecond}`;
  const eta = Math.ceil((total - done) / rate);
  return `${head}${perSecond}, ETA ${Math.floor(eta / 60)}:${String(eta % 60).padStart(2, '0')}`;
}

/** `fileRow`: the row as a person finds it (SourceRow.fileRow), not the plan's row, which keys the journal. */
export function describePlan(details: PlanDetails, fileRow: number, plan: RowPlan | undefined, error: string | undefined): void {
  if (plan?.kind === 'update') {
    if (details.updateCount++ < SHOWN) details.updates.push(`  update row ${fileRow} (${plan.id}): ${plan.fields.join(', ')}`);
  } else if (plan?.kind === 'invalid' || plan?.kind === 'unconfirmed') {
    if (details.invalidCount++ < SHOWN) details.invalid.push(`  invalid row ${fileRow}: ${error ?? ''}`);
  }
}

function out(ctx: Context, line: string): void {
  ctx.io.stdout.write(`${ctx.io.stdoutIsTTY ? terminalSafe(line) : line}\n`);
}

export function printPlan(ctx: Context, tally: Tally, details: PlanDetails): void {
  if (ctx.output.formatExplicit && ctx.output.format === 'json') return;
  out(ctx, `${tally.planLine()} (dry run: nothing was sent)`);
  for (const [lines, count] of [
    [details.updates, details.updateCount],
    [details.invalid, details.invalidCount],
  ] as const) {
    for (const line of lines) out(ctx, line);
    if (count > lines.length) out(ctx, `  … and ${formatCount(count - lines.length)} more (every row is in --results)`);
  }
}

/**
 * The command that imports the fixed rows, to paste as it is: the failed file and every flag that
 * shapes its rows as this run read them (without --client its contacts lack a clientId, without
 * --map its columns are not fields), each a shell word. Not --results, --failed, --encoding (the
 * failed file is UTF-8, and refused with --encoding when it starts with a BOM), --dry-run or
 * --stop-after-errors: they are this run's, not the rows'.
 */
export function againCommand(family: ResourceFamily, flags: ImportFlags, failed: string): string {
  const words = ['appraisal', family.command, 'import', failed];
  if (flags.match) words.push('--match', flags.match.join('.'));
  if (flags.formatGiven) words.push('--format', flags.format);
  if (flags.mapDisplay !== undefined) words.push('--map', flags.mapDisplay);
  if (flags.client !== undefined) words.push('--client', flags.client);
  if (flags.propertyMatch) words.push('--property-match', flags.propertyMatch.join('.'));
  return words.map(shellWord).join(' ');
}

export function report(ctx: Context, family: ResourceFamily, flags: ImportFlags, tally: Tally): void {
  if (ctx.output.formatExplicit && ctx.output.format === 'json') {
    const summary = {
      family: family.name,
      dryRun: flags.dryRun,
      ...tally.toJSON(),
      results: flags.results?.path ?? null,
      failedFile: tally.notImported > 0 ? (flags.failed?.path ?? null) : null,
    };
    ctx.io.stdout.write(`${JSON.stringify(summary)}\n`);
  } else if (!flags.dryRun) {
    out(ctx, `${family.view.label}: ${tally.summaryLine()}`);
  }
  if (flags.results && !flags.dryRun) ctx.io.notice(`results: ${flags.results.display}`);
  if (flags.results === undefined && !flags.dryRun)
    ctx.io.notice('no results file for stdin: pass --results PATH to keep one (and to resume after an interruption)');
  if (tally.unconfirmed > 0)
    ctx.io.warn(
      `${formatCount(tally.unconfirmed)} creates are unconfirmed (sent, answer lost): their rows' _error says how to check them; they are not in --failed`,
    );
  if (tally.notImported === 0) return;
  const where = flags.failed ? ` (rows to fix: ${flags.failed.display})` : '';
  const { invalid, failed, skipped } = tally.counts;
  throw new RowsNotImportedError(
    `${formatCount(tally.notImported)} of ${formatCount(tally.total)} rows ${flags.dryRun ? 'would not be imported' : 'were not imported'} (invalid ${formatCount(invalid)}, failed ${formatCount(failed)}${skipped > 0 ? `, skipped ${formatCount(skipped)}` : ''})${where}`,
    {
      hint: flags.failed
        ? `each row's column and reason are in _error of ${flags.results?.display ?? 'the results'}; fix ${flags.failed.display} and run \`${againCommand(family, flags, flags.failed.display)}\``
        : 'pass --results PATH and --failed PATH to see each row and keep the rows to fix',
    },
  );
}
