// `appraisal <family> import FILE|-`, its flags checked by the verb (import-flags.ts): a file is
// checked whole (its text in its encoding, the bounds on a row: input-text.ts; a quick scan of its bytes, else read through
// row by row: input-scan.ts), so a bad one is refused (exit 2) before anything is asked or sent —
// stdin, read once, stops at the bad row; a production target is refused without --yes when nobody
// can be asked; the results path's lock is taken and its journal read (resume);
// the description gives the request's types and checks; the match index is read; on a production
// target a person is asked with the plan's counts; then one pass sends every row (row-pass.ts) and the
// results, the failed rows and the summary are written. Rows not imported end with their own exit
// code (RowsNotImportedError), after everything is reported.
import { stat } from 'node:fs/promises';
import type { ApiRecord } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { InterruptedError } from '../../core/errors.js';
import { productionWrites } from '../../core/guards.js';
import { refuseSharedStdin } from '../../core/record-input/index.js';
import type { ResourceFamily } from '../../core/resources.js';
import { createProgress, formatCount, openRowSink } from '../../output/index.js';
import { familyContract } from '../../core/description/write-contract.js';
import { buildIndex, confirmDone, familyReader, listCommand, propertyRelation, type MatchIndex } from './family-records.js';
import type { FieldShape } from '../../core/description/schema.js';
import type { ImportFlags } from './import-flags.js';
import type { InputSource } from './input-source.js';
import { openInput, type OpenOptions } from './input.js';
import { SMALL_HEAP_FROM_RECORDS } from '../../core/http/paginate.js';
import { scanClean } from './input-scan.js';
import { EMPTY_JOURNAL, ImportJournal, journalIdentity, lockJournal, readJournal, removeJournal, type JournalState } from './journal.js';
import { removeDeadTemps } from './leftovers.js';
import { pushedRow, rowLayout } from './row-result.js';
import { RowPlanner, runPass, type PassOptions } from './row-pass.js';
import { describePlan, printPlan, rateText, report, type PlanDetails } from './run-report.js';
import { RowSender } from './send-row.js';
import { Tally } from './tally.js';
import { RowReader } from './typed-row.js';

/** Where rows come from: the input opened again for each pass (a file is read to count, to plan for a person, to send). */
type OpenRows = (options?: OpenOptions) => Promise<InputSource>;

/** What checkInput learnt of a file: its rows when it counted them, and whether the scan found it a CSV without quotes. */
interface InputCheck {
  rows: number | undefined;
  unquoted: boolean;
}

/** The pipe's stages before the sink: the input's rows typed by the contract's shapes, then planned. */
interface Pass {
  shape: FieldShape;
  /** One pass over `input`: each row typed and planned, sent by `sender` (none: plan only), its outcome to onRow in input order. */
  run(input: InputSource, stage: Pick<PassOptions, 'sender' | 'concurrency' | 'stopAfterErrors' | 'onRow'>): Promise<void>;
}

/**
 * A file this large (~50,000 rows of ~60 bytes) asks for the small heap before its first row: asked
 * at the 50,000th row, V8's young generation and heap limits had already grown (200,000 rows peaked
 * ~130 MiB where ~107 from the start). Other inputs (stdin, a smaller file of many short rows) ask
 * at their SMALL_HEAP_FROM_RECORDS-th row.
 */
const SMALL_HEAP_FROM_BYTES = 3 * 1024 * 1024;

/** Whether the input is a file large enough to ask for the small heap now (asked when it is). */
async function favourSmallHeapForFile(ctx: Context, path: string | undefined): Promise<boolean> {
  if (path === undefined) return false;
  // Unreadable: checkInput names it.
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || info.size < SMALL_HEAP_FROM_BYTES) return false;
  ctx.favourSmallHeap();
  return true;
}

/** One warning per column of the input whose field the service does not publish (a misspelt header). */
function warnUnpublished(ctx: Context, family: ResourceFamily, file: string, reader: RowReader): void {
  for (const { column, meant } of reader.unpublishedColumns()) {
    ctx.io.warn(
      `${file}: column ${column} is not a field the service publishes for ${family.view.label}: it is sent as it is` +
        (meant ? ` (did you mean ${meant}? --map can rename it)` : ''),
    );
  }
}

/** `flags`: checked by the verb's run (import-flags.ts) before this module is loaded. */
export async function runImport(ctx: Context, family: ResourceFamily, flags: ImportFlags): Promise<void> {
  const { file } = flags;
  if (flags.inputPath === undefined) refuseSharedStdin(ctx, `${family.name} import -`);
  const smallHeap = await favourSmallHeapForFile(ctx, flags.inputPath);
  const openRows: OpenRows = (options) => openInput(flags.inputPath, ctx.io.stdin, flags.file, flags.format, flags.encoding, options);
  // The file is checked (a bad one refused, its rows counted when progress shows them: checkInput)
  // while the session, the journal and the match index are read — only reads meanwhile, not one row
  // sent or a person asked before it ends: read first, it added its whole time to a re-import's. A
  // bad file's error is the one reported, even when something else failed meanwhile.
  const counting =
    flags.inputPath !== undefined && !flags.dryRun
      ? checkInput(openRows, flags, ctx.io.showProgress, ctx.signal)
      : Promise.resolve(undefined);
  counting.catch(() => undefined);
  try {
    await importRows(ctx, family, file, flags, { openRows, smallHeap }, counting);
  } catch (error) {
    await counting;
    throw error;
  }
}

async function importRows(
  ctx: Context,
  family: ResourceFamily,
  file: string,
  flags: ImportFlags,
  { openRows, smallHeap }: { openRows: OpenRows; smallHeap: boolean },
  counting: Promise<InputCheck | undefined>,
): Promise<void> {
  // What the run needs of the session, at once: a production target's confirmation (refused now,
  // naming --yes, when nobody can answer: a pipe, cron), and the service the journal belongs to.
  const production = flags.dryRun ? undefined : await productionWrites(ctx, `import ${file} into ${family.view.label}`);
  const session = await ctx.session();
  const service = { origin: session.origin, profile: session.profileName };

  const release = !flags.dryRun && flags.results ? await lockJournal(flags.results) : undefined;
  let journal: ImportJournal | undefined;
  try {
    // A run killed before its files were placed left their temps; the same command clears them.
    await removeDeadTemps([flags.results?.path, flags.failed?.path]);
    const identity = { ...(await journalIdentity(family, flags)), ...service };
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
    const contract = familyContract(api, family, (line) => ctx.io.debug(line));
    const read = { concurrency: ctx.globals.concurrency, signal: ctx.signal };
    const reader = familyReader(api, family, read.concurrency, flags.client);
    if (validBytes !== undefined && flags.results) {
      // The journal's word is checked against the service's records: what it calls done must exist.
      state = await confirmDone(state, reader.all(read.signal));
      const gone = state.gone.size > 0 ? ` (${formatCount(state.gone.size)} more the service no longer holds: reported failed)` : '';
      ctx.io.notice(
        `resuming the import journaled beside ${flags.results.display}: ${formatCount(state.done.size)} rows already done${gone}`,
      );
    }
    let index: Promise<MatchIndex> | undefined;
    const loadIndex = () => (index ??= buildIndex(flags.match ?? ['id'], reader.all(read.signal)));
    // With --match every row needs it: read it before the first row (a failure ends the run before any write).
    const matchIndex = flags.match ? await loadIndex() : undefined;
    const relate = flags.propertyMatch ? propertyRelation(api, family, flags.propertyMatch, read) : undefined;
    const checkCommand = listCommand(family, new Date(ctx.now().getTime() - 3_600_000), flags.client);
    const planner = () =>
      new RowPlanner({
        match: flags.match,
        index: loadIndex,
        checks: contract.checks,
        journal: state,
        parent: family.parent ? { field: 'clientId', fallback: flags.client } : undefined,
        relate,
        checkCommand,
      });
    let columnsChecked = false;
    const pass: Pass = {
      shape: contract.shape,
      run: (input, stage) => {
        const reader = new RowReader({ shape: contract.shape, readOnly: contract.readOnly, header: input.header, rename: flags.rename });
        if (!columnsChecked) {
          columnsChecked = true;
          warnUnpublished(ctx, family, file, reader);
        }
        return runPass({ ...stage, rows: input.rows, reader, planner: planner(), signal: ctx.signal });
      },
    };

    const checked = await counting;
    // A person is asked with the plan's counts (one more pass without writes); stdin is read once.
    if (production) {
      const planned = flags.inputPath && production.asks ? await planOnly(openRows, pass) : undefined;
      await production.confirm(
        planned
          ? `: create ${formatCount(planned.counts.created)}, update ${formatCount(planned.counts.updated)} (unchanged ${formatCount(planned.counts.unchanged)}, invalid ${formatCount(planned.counts.invalid)})`
          : '',
      );
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
          signal: ctx.signal,
          now: () => ctx.now(),
          checkCommand: (since) => listCommand(family, since, flags.client),
        });
    const tally = await sendAll(ctx, family, flags, { openRows, pass, sender, smallHeap }, checked);
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

/**
 * A file is looked at before anything is sent, so what cannot be read is refused now: read through
 * row by row when the quick scan of its bytes (input-scan.ts) cannot vouch for it, or when the
 * progress shown needs the total; else only its header is read.
 */
async function checkInput(openRows: OpenRows, flags: ImportFlags, counted: boolean, signal: AbortSignal): Promise<InputCheck> {
  const verdict = !counted && flags.inputPath !== undefined && (await scanClean(flags.inputPath, flags.format, flags.encoding));
  if (verdict) {
    const unquoted = verdict === 'unquoted';
    (await openRows({ headerOnly: true, unquoted })).close();
    return { rows: undefined, unquoted };
  }
  return { rows: await countRows(openRows, signal), unquoted: false };
}

/** The rows of a file, read through before anything is sent: what cannot be read is refused now. */
async function countRows(openRows: OpenRows, signal: AbortSignal): Promise<number> {
  const input = await openRows();
  let rows = 0;
  for await (const _row of input.rows) {
    if (signal.aborted) throw new InterruptedError();
    rows++;
  }
  return rows;
}

/** The plan's counts for a person to confirm: one pass without writes. */
async function planOnly(openRows: OpenRows, pass: Pass): Promise<Tally> {
  const tally = new Tally();
  await pass.run(await openRows(), {
    sender: undefined,
    concurrency: 1,
    stopAfterErrors: undefined,
    onRow: async (_source, result, plan) => {
      if (plan?.kind === 'done') tally.resumed++;
      else tally.add(result.status);
    },
  });
  return tally;
}

/** The run: every row through the pipe, its outcome pushed into the plan's rows sink as it finishes. */
async function sendAll(
  ctx: Context,
  family: ResourceFamily,
  flags: ImportFlags,
  { openRows, pass, sender, smallHeap }: { openRows: OpenRows; pass: Pass; sender: RowSender | undefined; smallHeap: boolean },
  checked: InputCheck | undefined,
): Promise<Tally> {
  const total = checked?.rows;
  const input = await openRows({ unquoted: checked?.unquoted });
  // A byte-order mark when the input had one (Excel's "CSV UTF-8") or was in another encoding: Excel
  // reads the UTF-8 files written from it as UTF-8 only after one (docs/IMPORT.md).
  const layout = rowLayout(flags.format, input.header, pass.shape, flags.encoding !== 'utf-8' || input.bom === true, input.delimiter);
  const sink = await openRowSink(ctx, layout.sink);
  const tally = new Tally();
  // No progress line shown (not a terminal): no rate text made per row either.
  const progress = flags.dryRun || !ctx.io.showProgress ? undefined : createProgress(ctx, family.view.label);
  const startedAt = performance.now();
  const details: PlanDetails = { updates: [], invalid: [], updateCount: 0, invalidCount: 0 };
  let rowsSeen = 0;
  try {
    await pass.run(input, {
      sender,
      concurrency: ctx.globals.concurrency,
      stopAfterErrors: flags.stopAfterErrors,
      onRow: async (source, result, plan) => {
        if (plan?.kind === 'done') tally.resumed++;
        if (!(flags.dryRun && plan?.kind === 'done')) tally.add(result.status);
        // A long import, as a long export: V8's young generation and heap would otherwise grow with
        // the rows' allocation rate (200,000 rows: ~175 → ~110 MiB peak; shorter ones keep V8's defaults).
        // A large file asked before its first row (SMALL_HEAP_FROM_BYTES).
        if (++rowsSeen === SMALL_HEAP_FROM_RECORDS && !smallHeap) ctx.favourSmallHeap();
        if (result.status === 'failed' && !result.toFix) tally.unconfirmed++;
        await sink.push(pushedRow(layout, source, result));
        if (flags.dryRun) describePlan(details, source.fileRow, plan, result.error);
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
