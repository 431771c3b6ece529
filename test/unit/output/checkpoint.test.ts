// output/checkpoint.ts alone: the journal a resumable export keeps beside --out. What is read back
// is only what was written whole (a line cut short by kill -9 is ignored and cut off on reopen), a
// file that is no checkpoint is refused, a planted link is never followed, and a resumed run must be
// the same export (identityMismatch names the first difference).
import { appendFileSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { exitCodeFor } from '../../../src/core/exit-codes.js';
import {
  CHECKPOINT_KIND,
  CheckpointJournal,
  identityMismatch,
  openCheckpoint,
  readCheckpoint,
  removeCheckpoint,
  type CheckpointEntry,
  type CheckpointHeader,
  type ExportIdentity,
} from '../../../src/output/checkpoint.js';
import { tempDir } from '../../helpers/temp.js';

const IDENTITY: ExportIdentity = {
  collection: '/api/properties',
  filters: { type: 'office' },
  pageSize: 100,
  fields: null,
  format: 'ndjson',
  query: null,
  origin: 'https://api.example.com',
  profile: 'default',
};
const HEADER: CheckpointHeader = { kind: CHECKPOINT_KIND, version: 1, identity: IDENTITY, startedAt: '2026-11-27T10:00:00.000Z' };

function entry(page: number, ids: string[]): CheckpointEntry {
  return { page, pages: 3, limit: 2, total: 6, records: page * 2, written: page * 2, bytes: page * 20, ids };
}

function journalPath(): string {
  return join(tempDir('appraisal-checkpoint-'), '.out.ndjson.checkpoint');
}

describe('checkpoint journal', () => {
  it('reads back the header, the last entry and every id, durable line by line', async () => {
    const path = journalPath();
    const journal = await CheckpointJournal.create(path, HEADER);
    await journal.append(entry(1, ['a', 'b']));
    await journal.append(entry(2, ['c', 'd']));
    await journal.close();
    const state = await readCheckpoint(path, 'the checkpoint');
    expect(state).toEqual({ header: HEADER, last: entry(2, ['c', 'd']), ids: ['a', 'b', 'c', 'd'], validBytes: statSync(path).size });
    // Private from the first instant.
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a header alone is a checkpoint with no page done yet', async () => {
    const path = journalPath();
    await (await CheckpointJournal.create(path, HEADER)).close();
    expect(await readCheckpoint(path, 'x')).toMatchObject({ last: undefined, ids: [] });
  });

  it('ignores a line cut short by a crash, and reopening cuts it off before appending', async () => {
    const path = journalPath();
    const journal = await CheckpointJournal.create(path, HEADER);
    await journal.append(entry(1, ['a', 'b']));
    await journal.close();
    const whole = readFileSync(path);
    appendFileSync(path, '{"page":2,"pages":3,"limit":2,"tot');
    const state = (await readCheckpoint(path, 'x'))!;
    expect(state.last).toEqual(entry(1, ['a', 'b']));
    expect(state.validBytes).toBe(whole.length);
    const opened = (await openCheckpoint(path, 'x'))!;
    expect(opened.state).toEqual(state);
    // Opened for a resume, the journal is unchanged until the resume is decided.
    expect(readFileSync(path).length).toBeGreaterThan(whole.length);
    const reopened = await CheckpointJournal.resume(opened.handle, path, opened.state.validBytes);
    await reopened.append(entry(2, ['c', 'd']));
    await reopened.close();
    expect(readFileSync(path, 'utf8')).toBe(`${whole.toString('utf8')}${JSON.stringify(entry(2, ['c', 'd']))}\n`);
  });

  it.each([
    ['a line that is no JSON', 'not json\n'],
    ['an entry with a negative or fractional count', `${JSON.stringify({ ...entry(2, []), bytes: -1 })}\n`],
    ['an entry without ids', `${JSON.stringify({ ...entry(2, []), ids: undefined })}\n`],
  ])('stops at %s: only what comes before it counts', async (_name, line) => {
    const path = journalPath();
    const journal = await CheckpointJournal.create(path, HEADER);
    await journal.append(entry(1, ['a']));
    await journal.close();
    const size = statSync(path).size;
    appendFileSync(path, line);
    appendFileSync(path, `${JSON.stringify(entry(3, ['z']))}\n`);
    const state = (await readCheckpoint(path, 'x'))!;
    expect(state.last).toEqual(entry(1, ['a']));
    expect(state.ids).toEqual(['a']);
    expect(state.validBytes).toBe(size);
  });

  it('there is none when no file is there', async () => {
    expect(await readCheckpoint(journalPath(), 'x')).toBeUndefined();
  });

  it.each([
    ['another file', '{"hello":"world"}\n'],
    ['another version of the journal', `${JSON.stringify({ ...HEADER, version: 2 })}\n`],
    ['an empty file', ''],
  ])('refuses %s as a checkpoint (exit 2, how to get past it)', async (_name, content) => {
    const path = journalPath();
    writeFileSync(path, content, { mode: 0o600 });
    const error = await readCheckpoint(path, 'the checkpoint beside out.ndjson').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect(exitCodeFor(error)).toBe(2);
    expect((error as UsageError).message).toBe('the checkpoint beside out.ndjson is not an appraisal export checkpoint');
    expect((error as UsageError).hint).toContain('--restart');
  });

  it('never follows a planted link, to read or to create', async () => {
    const dir = tempDir('appraisal-checkpoint-');
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, `${JSON.stringify(HEADER)}\n`, { mode: 0o600 });
    const link = join(dir, '.out.ndjson.checkpoint');
    symlinkSync(elsewhere, link);
    const read = await readCheckpoint(link, 'x').catch((caught: unknown) => caught);
    expect(exitCodeFor(read), String(read)).toBe(2);
    expect(String((read as Error).message)).toContain('symbolic link');
    // Created only where nothing is (O_EXCL|O_NOFOLLOW): the link is refused, not written through
    // (the resumable export removes what is there first, and maps a refusal to exit 2).
    const created = await CheckpointJournal.create(link, HEADER).catch((caught: unknown) => caught);
    expect((created as NodeJS.ErrnoException).code).toBe('EEXIST');
    expect(readFileSync(elsewhere, 'utf8')).toBe(`${JSON.stringify(HEADER)}\n`);
  });

  it('removeCheckpoint removes it, and is quiet when there is none', async () => {
    const path = journalPath();
    await (await CheckpointJournal.create(path, HEADER)).close();
    await removeCheckpoint(path);
    await removeCheckpoint(path);
    expect(await readCheckpoint(path, 'x')).toBeUndefined();
  });
});

describe('identityMismatch: a resumed run must be the same export', () => {
  it('is undefined for the same export (a missing --query reads as none)', () => {
    expect(identityMismatch(IDENTITY, { ...IDENTITY })).toBeUndefined();
    expect(identityMismatch({ ...IDENTITY, query: undefined as unknown as null }, IDENTITY)).toBeUndefined();
  });

  it.each<[string, Partial<ExportIdentity>, string]>([
    ['collection', { collection: '/api/clients' }, 'collection was "/api/properties", this run has "/api/clients"'],
    ['origin', { origin: 'https://other.example.com' }, 'origin was "https://api.example.com", this run has "https://other.example.com"'],
    ['profile', { profile: 'prod' }, 'profile was "default", this run has "prod"'],
    ['format', { format: 'csv' }, 'format was "ndjson", this run has "csv"'],
    ['filters', { filters: { type: 'retail' } }, 'filters was {"type":"office"}, this run has {"type":"retail"}'],
    ['--fields', { fields: ['id'] }, '--fields was none, this run has ["id"]'],
    ['--page-size', { pageSize: null }, '--page-size was 100, this run has none'],
    ['--query', { query: 'name' }, '--query was none, this run has "name"'],
  ])('names a different %s', (_name, change, said) => {
    expect(identityMismatch(IDENTITY, { ...IDENTITY, ...change })).toBe(said);
  });
});
