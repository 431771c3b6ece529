// `appraisal <family> import FILE|-`: the flags are checked; a file is read through once (its text
// in its encoding, the bounds on a row: input-text.ts), so a bad one is refused (exit 2) before
// anything is asked or sent — stdin, read once, stops at the bad row; a production target is refused without
// --yes when nobody can be asked; the results path's lock is taken and its journal read (resume);
// the description gives the request's types and checks; the match index is read; on a production
// target a person is asked with the plan's counts; then one pass sends every row (row-runner.ts) and the
// results, the failed rows and the summary are written. Rows not imported end with their own exit
// code (RowsNotImportedError), after everything is reported.
import type { ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { InterruptedError } from '../../core/errors.js';
import { confirmDestructive, isProductionLike } from '../../core/guards.js';
import { retryPolicy } from '../../core/http/retry.js';
import type { ResourceFamily } from '../../core/resources.js';
import { createProgress, formatCount, openRowSink } from '../../output/index.js';
import { familyContract } from './body-checks.js';
import { familyReader } from './family-records.js';
import type { FieldShape } from './field-shapes.js';
import { importFlags, type ImportFlags, type ImportOptions } from './import-flags.js';
import { openInput } from './input.js';
import { confirmDone, EMPTY_JOURNAL, ImportJournal, readJournal, removeJournal, type JournalState } from './journal.js';
import { buildIndex, type MatchIndex } from './match-index.js';
import { pushedRow, rowLayout } from './row-result.js';
import { runPass } from './row-runner.js';
import { RowPlanner } from './row-plan.js';
import { describePlan, printPlan, rateText, report, type PlanDetails } from './run-report.js';
import { identityOf, listCommand, lockResults, propertyRelation } from './run-setup.js';
import { RowSender } from './send-row.js';
import { Tally } from './tally.js';
import { RowReader } from './typed-row.js';
import { refuseSharedStdin } from '../../core/record-input/index.js';

interface Pass {
  shape: FieldShape;
  readOnly: ReadonlySet<string>;
  planner: () => RowPlanner;
}

export async function runImport(ctx: Context, family: ResourceFamily, file: string, options: ImportOptions): Promise<void> {
  const rows = ctx.output.sink;
  if (rows.kind !== 'rows') throw new Error(`import writes its rows to the rows sink, not to ${rows.kind}`);
  const flags = await importFlags(family, file, options, ctx.cwd, rows);
  if (flags.inputPath === undefined) refuseSharedStdin(ctx, `${family.name} import -`);
  const rowCount = flags.inputPath !== undefined && !flags.dryRun ? await countRows(ctx, flags) : undefined;
  const session = await ctx.session();
  const production = !flags.dryRun && isProductionLike(session.environment);
  const action = `import ${file} into ${family.view.label}`;
  // Refused before anything is read or sent when nobody can answer (a pipe, cron): it names --yes.
  if (production && !ctx.globals.yes && !ctx.io.canPrompt) await confirmDestructive(ctx, action);

  const release = !flags.dryRun && flags.results ? await lockResults(flags) : undefined;
  let journal: ImportJournal | undefined;
  try {
    const identity = await identityOf(ctx, family, flags);
    let state: JournalState = EMPTY_JOURNAL;
    let validBytes: number | undefined;
    if (flags.results) {
      const previous = await readJournal(flags.results.journal, flags.results.journal, identity).catch((error: unknown) => {
        if (flags.dryRun) return undefined; // a dry run never writes the journal; another run's is not its business
        throw error;
      });
      if (previous) {
        state = previous.state;
        validBytes = previous.validBytes;
      }
    }

    const api = await ctx.api();
    const contract = await familyContract(ctx, api, family);
    const reader = familyReader(api, family, ctx.globals.concurrency, flags.client);
    if (validBytes !== undefined && flags.results) {
      // The journal's word is checked against the service's records: what it calls done must exist.
      state = await confirmDone(state, reader.all(ctx.signal));
      const gone = state.gone.size > 0 ? ` (${formatCount(state.gone.size)} more the service no longer holds: reported failed)` : '';
      ctx.io.notice(
        `resuming the import journaled beside ${flags.results.display}: ${formatCount(state.done.size)} rows already done${gone}`,
      );
    }
    let index: Promise<MatchIndex> | undefined;
    const loadIndex = () => (index ??= buildIndex(flags.match ?? ['id'], reader.all(ctx.signal)));
    // With --match every row needs it: read it before the first row (a failure ends the run before any write).
    const matchIndex = flags.match ? await loadIndex() : undefined;
    const relate = flags.propertyMatch ? propertyRelation(api, ctx, family, flags.propertyMatch) : undefined;
    const checkCommand = listCommand(family, new Date(ctx.now().getTime() - 3_600_000), flags.client);
    const pass: Pass = {
      shape: contract.shape,
      readOnly: contract.readOnly,
      planner: () =>
        new RowPlanner({
          match: flags.match,
          index: loadIndex,
          checks: contract.checks,
          journal: state,
          parent: family.parent ? { field: 'clientId', fallback: flags.client } : undefined,
          relate,
          checkCommand,
        }),
    };

    // A person is asked with the plan's counts (one more pass without writes); stdin is read once.
    let planned: Tally | undefined;
    const asks = production && !ctx.globals.yes;
    if (!flags.dryRun && flags.inputPath && asks) planned = await planOnly(ctx, flags, pass);
    if (production) {
      const counts = planned
        ? `: create ${formatCount(planned.counts.created)}, update ${formatCount(planned.counts.updated)} (unchanged ${formatCount(planned.counts.unchanged)}, invalid ${formatCount(planned.counts.invalid)})`
        : '';
      await confirmDestructive(ctx, `${action}${counts}`);
    }

    if (!flags.dryRun && flags.results)
      journal = await ImportJournal.open(flags.results.journal, flags.results.journal, identity, validBytes);
    const sender = flags.dryRun
      ? undefined
      : new RowSender({
          api,
          family,
          reader,
          journal,
          journalSends: flags.match === undefined,
          keyOf: matchIndex ? (record: ApiRecord) => matchIndex.keyOf(record) : undefined,
          policy: retryPolicy(ctx.globals.retries, ctx.env),
          signal: ctx.signal,
          now: () => ctx.now(),
          checkCommand: (since) => listCommand(family, since, flags.client),
        });
    const tally = await sendAll(ctx, family, flags, pass, sender, rowCount);
    await journal?.close();
    journal = undefined;
    if (!flags.dryRun && flags.results) await removeJournal(flags.results.journal);
    report(ctx, family, flags, tally);
  } catch (error) {
    await journal?.close();
    if (journal && flags.results)
      ctx.io.notice(`the rows done so far are journaled: run the same command again (same --results) to go on from there`);
    throw error;
  } finally {
    await release?.();
  }
}

/** The rows of a file, read through before anything is sent: what cannot be read is refused now. */
async function countRows(ctx: Context, flags: ImportFlags): Promise<number> {
  const input = await openInput(flags.inputPath, ctx.io.stdin, flags.file, flags.format, flags.encoding);
  let rows = 0;
  for await (const _row of input.rows) {
    if (ctx.signal.aborted) throw new InterruptedError();
    rows++;
  }
  return rows;
}

async function planOnly(ctx: Context, flags: ImportFlags, pass: Pass): Promise<Tally> {
  const input = await openInput(flags.inputPath, ctx.io.stdin, flags.file, flags.format, flags.encoding);
  const tally = new Tally();
  await runPass({
    rows: input.rows,
    reader: new RowReader({ shape: pass.shape, readOnly: pass.readOnly, header: input.header, rename: flags.rename }),
    planner: pass.planner(),
    sender: undefined,
    concurrency: 1,
    stopAfterErrors: undefined,
    signal: ctx.signal,
    onRow: async (_source, result, plan) => {
      if (plan?.kind === 'done') tally.resumed++;
      else tally.add(result.status);
    },
  });
  return tally;
}

async function sendAll(
  ctx: Context,
  family: ResourceFamily,
  flags: ImportFlags,
  pass: Pass,
  sender: RowSender | undefined,
  total: number | undefined,
): Promise<Tally> {
  const input = await openInput(flags.inputPath, ctx.io.stdin, flags.file, flags.format, flags.encoding);
  const layout = rowLayout(flags.format, input.header, pass.shape, flags.encoding !== 'utf-8');
  const sink = await openRowSink(ctx, layout.sink);
  const tally = new Tally();
  const progress = flags.dryRun ? undefined : createProgress(ctx, family.view.label);
  const startedAt = performance.now();
  const details: PlanDetails = { updates: [], invalid: [], updateCount: 0, invalidCount: 0 };
  try {
    await runPass({
      rows: input.rows,
      reader: new RowReader({ shape: pass.shape, readOnly: pass.readOnly, header: input.header, rename: flags.rename }),
      planner: pass.planner(),
      sender,
      concurrency: ctx.globals.concurrency,
      stopAfterErrors: flags.stopAfterErrors,
      signal: ctx.signal,
      onRow: async (source, result, plan) => {
        if (plan?.kind === 'done') tally.resumed++;
        if (!(flags.dryRun && plan?.kind === 'done')) tally.add(result.status);
        if (result.status === 'failed' && !result.toFix) tally.unconfirmed++;
        await sink.push(pushedRow(layout, source, result));
        if (flags.dryRun) describePlan(details, plan, result.error);
        progress?.text(rateText(tally.total, total, startedAt, family.view.label), tally.total === total);
      },
    });
  } catch (error) {
    progress?.stop();
    await sink.discard();
    throw error;
  }
  progress?.succeed(rateText(tally.total, tally.total, startedAt, family.view.label));
  await sink.finish();
  if (flags.dryRun) printPlan(ctx, tally, details);
  return tally;
}
