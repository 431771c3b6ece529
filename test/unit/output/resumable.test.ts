// output/resumable.ts alone, driven as the list runner drives it (write a page, pageDone, then finish
// or discard): an interrupted export keeps its complete pages and a resumed one carries on after
// them to a file byte-identical to an uninterrupted export; bytes past the checkpoint (a write cut
// short by kill -9) are cut off; a checkpoint the partial does not bear out (forged, damaged) is
// refused with exit 9 and both files are kept as they were; another export's partial is not resumed.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointMismatchError, ContractError, UsageError } from '../../../src/core/errors.js';
import { exitCodeFor } from '../../../src/core/exit-codes.js';
import type { ResumeMode } from '../../../src/core/output-plan.js';
import type { ExportIdentity } from '../../../src/output/checkpoint.js';
import { openResumableExport, partialPaths, type ResumableExport } from '../../../src/output/resumable.js';
import { fakeContext } from '../../helpers/fake-context.js';
import { entriesOf, tempDir } from '../../helpers/temp.js';

const IDENTITY: ExportIdentity = {
  collection: '/api/properties',
  filters: {},
  pageSize: null,
  fields: null,
  format: 'ndjson',
  query: null,
  origin: 'https://api.example.com',
  profile: 'default',
};

/** Six records, two a page: what an uninterrupted export writes, page by page. */
const PAGES = [1, 2, 3].map((page) => [2 * page - 1, 2 * page].map((n) => ({ id: `id-${n}`, text: `record ${n} «ü»` })));
const line = (record: { id: string }): string => `${JSON.stringify(record)}\n`;
const WHOLE = PAGES.flat().map(line).join('');

function setUp() {
  const dir = tempDir('appraisal-resumable-');
  const out = join(dir, 'out.ndjson');
  const paths = partialPaths(out);
  const open = (mode: ResumeMode, identity: ExportIdentity = IDENTITY, allowPartial = false) => {
    const flags = { resume: mode === 'resume', restart: mode === 'restart' };
    const made = fakeContext({ globals: { out: 'out.ndjson', allowPartial }, outputFlags: flags, cwd: dir });
    return {
      made,
      exported: openResumableExport(made.ctx, made.ctx.output, identity),
    };
  };
  return { dir, out, paths, open };
}

/** Write pages `from`..`to` (1-based) as the list runner does: records, then pageDone (never after the last page). */
async function writePages(exported: ResumableExport, from: number, to: number): Promise<void> {
  let written = exported.resumedWritten;
  for (let page = from; page <= to; page++) {
    const records = PAGES[page - 1]!;
    await exported.destination.write(records.map(line).join(''));
    written += records.length;
    if (page < PAGES.length) {
      await exported.pageDone({ page, pages: PAGES.length, limit: 2, total: 6, count: written, ids: records.map((r) => r.id) }, written);
    }
  }
}

/** An export of the first two pages that then fails: partial and checkpoint kept. */
async function interruptedAfterTwoPages(setup: ReturnType<typeof setUp>): Promise<string> {
  const { made, exported } = setup.open('auto');
  const first = await exported;
  expect(first.resumeFrom).toBeUndefined();
  await writePages(first, 1, 2);
  await first.destination.discard();
  expect(made.stderr()).toContain(`Kept the 4 records exported before the failure beside out.ndjson; run the same command with --resume`);
  expect(existsSync(setup.out)).toBe(false);
  return readFileSync(setup.paths.partial, 'utf8');
}

describe('resumable --out', () => {
  it('an uninterrupted export renames its partial into place and leaves nothing beside it', async () => {
    const setup = setUp();
    const exported = await setup.open('auto').exported;
    await writePages(exported, 1, 3);
    await exported.destination.finish();
    expect(readFileSync(setup.out, 'utf8')).toBe(WHOLE);
    expect(entriesOf(setup.dir)).toEqual(['out.ndjson']);
  });

  it('resumes after the last complete page to a file byte-identical to an uninterrupted export', async () => {
    const setup = setUp();
    expect(await interruptedAfterTwoPages(setup)).toBe(PAGES.slice(0, 2).flat().map(line).join(''));
    const { made, exported } = setup.open('resume');
    const resumed = await exported;
    expect(resumed.resumeFrom).toEqual({ afterPage: 2, limit: 2, total: 6, count: 4, ids: ['id-1', 'id-2', 'id-3', 'id-4'] });
    expect(resumed.resumedWritten).toBe(4);
    expect(made.stderr()).toContain('Resuming the export to out.ndjson after page 2 of 3 (4 records)');
    await writePages(resumed, 3, 3);
    await resumed.destination.finish();
    expect(readFileSync(setup.out)).toEqual(Buffer.from(WHOLE));
    expect(entriesOf(setup.dir)).toEqual(['out.ndjson']);
  });

  it('cuts off bytes written after the checkpoint (a write cut short by kill -9)', async () => {
    const setup = setUp();
    await interruptedAfterTwoPages(setup);
    appendFileSync(setup.paths.partial, '{"id":"id-5","text":"rec');
    const resumed = await setup.open('resume').exported;
    await writePages(resumed, 3, 3);
    await resumed.destination.finish();
    expect(readFileSync(setup.out, 'utf8')).toBe(WHOLE);
  });

  it.each([
    ['a byte count in the middle of a record', { bytes: 30 }, 'is not the end of a record'],
    ['more records than the kept bytes hold', { written: 5, records: 5 }, 'it says 5 records, the file holds 4'],
    ['a page past the last', { page: 1e12, pages: 3 }, 'page 1000000000000 of 3'],
  ])('refuses a forged checkpoint (%s) with exit 9 and keeps both files as they were', async (_name, forged, why) => {
    const setup = setUp();
    await interruptedAfterTwoPages(setup);
    const checkpoint = readFileSync(setup.paths.checkpoint, 'utf8');
    const lines = checkpoint.trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    writeFileSync(setup.paths.checkpoint, `${[...lines.slice(0, -1), JSON.stringify({ ...last, ...forged })].join('\n')}\n`);
    const partialBefore = readFileSync(setup.paths.partial);
    const checkpointBefore = readFileSync(setup.paths.checkpoint);

    const error = await setup.open('resume').exported.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckpointMismatchError);
    expect(exitCodeFor(error)).toBe(9);
    expect((error as Error).message).toContain(why);
    expect((error as Error).message).toContain('it was not resumed and is kept as it is');
    expect(readFileSync(setup.paths.partial)).toEqual(partialBefore);
    expect(readFileSync(setup.paths.checkpoint)).toEqual(checkpointBefore);
    // The lock was released: the export can be started again from the beginning.
    const restarted = await setup.open('restart').exported;
    await writePages(restarted, 1, 3);
    await restarted.destination.finish();
    expect(readFileSync(setup.out, 'utf8')).toBe(WHOLE);
  });

  it.each([
    ['the change its checkpoint records', { changed: 'total 6 at first, 7 on page 2' }, '(total 6 at first, 7 on page 2)'],
    // A journal with no `changed` (an older appraisal): pages of 3 should have held 6 records by page 2, not 4.
    ['records short of full pages', { limit: 3 }, '(2 duplicate record(s) dropped by page 2)'],
  ])('refuses (exit 9) a partial a crash left that was read while the collection changed: %s', async (_name, entry, why) => {
    const setup = setUp();
    await interruptedAfterTwoPages(setup);
    const lines = readFileSync(setup.paths.checkpoint, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    writeFileSync(setup.paths.checkpoint, `${[...lines.slice(0, -1), JSON.stringify({ ...last, ...entry })].join('\n')}\n`);
    const partialBefore = readFileSync(setup.paths.partial);

    const error = await setup.open('resume').exported.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractError);
    expect(exitCodeFor(error)).toBe(9);
    expect((error as ContractError).message).toBe(
      `cannot resume the export of /api/properties: the collection changed while the partial export beside out.ndjson was read ${why}, so it may lack records a resume would never read`,
    );
    expect((error as ContractError).hint).toContain('--restart');
    expect(readFileSync(setup.paths.partial)).toEqual(partialBefore);
    // --allow-partial accepts a collection that changed: it is resumed.
    const accepted = await setup.open('resume', IDENTITY, true).exported;
    expect(accepted.resumedWritten).toBe(4);
    await accepted.destination.discard();
  });

  it('refuses to resume another export (exit 2) and changes nothing', async () => {
    const setup = setUp();
    const partial = await interruptedAfterTwoPages(setup);
    const error = await setup.open('resume', { ...IDENTITY, collection: '/api/clients' }).exported.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeFor(error)).toBe(2);
    expect((error as Error).message).toBe(
      '--resume: the partial export beside out.ndjson is another export (collection was "/api/properties", this run has "/api/clients")',
    );
    expect(readFileSync(setup.paths.partial, 'utf8')).toBe(partial);
  });

  it('refuses a partial shorter than its checkpoint says (exit 9: the checkpoint disagrees with its file), keeping both', async () => {
    const setup = setUp();
    await interruptedAfterTwoPages(setup);
    writeFileSync(setup.paths.partial, line(PAGES[0]![0]!));
    const checkpoint = readFileSync(setup.paths.checkpoint, 'utf8');
    const error = await setup.open('resume').exported.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckpointMismatchError);
    expect(exitCodeFor(error)).toBe(9);
    expect((error as Error).message).toMatch(/is shorter than its checkpoint records \(\d+ < \d+ bytes\); it was not resumed/);
    expect(readFileSync(setup.paths.partial, 'utf8')).toBe(line(PAGES[0]![0]!));
    expect(readFileSync(setup.paths.checkpoint, 'utf8')).toBe(checkpoint);
  });

  it('without --resume a partial export is replaced, and says so', async () => {
    const setup = setUp();
    await interruptedAfterTwoPages(setup);
    const { made, exported } = setup.open('auto');
    const fresh = await exported;
    expect(fresh.resumeFrom).toBeUndefined();
    expect(made.stderr()).toContain('A partial export of 4 records to out.ndjson');
    expect(made.stderr()).toContain('is replaced; run with --resume to continue such an export instead');
    await writePages(fresh, 1, 3);
    await fresh.destination.finish();
    expect(readFileSync(setup.out, 'utf8')).toBe(WHOLE);
  });

  it('--resume with nothing to resume starts from the beginning, and says so', async () => {
    const setup = setUp();
    const { made, exported } = setup.open('resume');
    const fresh = await exported;
    expect(fresh.resumeFrom).toBeUndefined();
    expect(made.stderr()).toContain('Nothing to resume for out.ndjson: starting from the beginning');
    await fresh.destination.discard();
  });

  it('a failure before the first page leaves nothing beside --out', async () => {
    const setup = setUp();
    const exported = await setup.open('auto').exported;
    await exported.destination.write(line(PAGES[0]![0]!));
    await exported.destination.discard();
    expect(entriesOf(setup.dir)).toEqual([]);
  });

  it('one export per --out at a time: a second one is refused while the first runs (exit 2)', async () => {
    const setup = setUp();
    const first = await setup.open('auto').exported;
    const error = await setup.open('auto').exported.catch((caught: unknown) => caught);
    expect(exitCodeFor(error)).toBe(2);
    expect((error as Error).message).toBe(`--out out.ndjson is being written by another appraisal export (pid ${process.pid})`);
    await first.destination.discard();
    const second = await setup.open('auto').exported;
    await second.destination.discard();
  });
});
