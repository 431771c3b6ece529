import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalEnvironmentError, UsageError } from '../../../../src/core/errors.js';
import { fileStateStore, loadState, newState, parseState, serializeState, writeStateFile } from '../../../../src/commands/watch/state.js';
import { tempDir } from '../../../helpers/temp.js';

const props = { family: 'props' as const, scope: null };
const dir = () => tempDir('watch-state-');

function sample() {
  const state = newState('props', null);
  state.mark = '2026-03-01T12:00:00.000Z';
  state.latest = '2026-03-01T12:05:00.000Z';
  state.polls = 7;
  state.lastFullPoll = 2;
  state.seen.set('a', '2026-03-01T12:00:00.000Z');
  state.seen.set('b', '#0123456789abcdef01234567');
  return state;
}

describe('state file', () => {
  it('round-trips through save and load, mode 0600, with no temp file left behind', async () => {
    const path = join(dir(), 'props.state');
    await fileStateStore(path).save(sample());
    const loaded = await loadState(path, props);
    expect(loaded).toEqual(sample());
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(path, '..'))).toEqual(['props.state']);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1, family: 'props', scope: null, polls: 7 });
  });

  it('replaces the old file whole: a reader sees the old state or the new, never a mix', async () => {
    const path = join(dir(), 'props.state');
    const store = fileStateStore(path);
    const state = sample();
    await store.save(state);
    for (let i = 0; i < 200; i++) state.seen.set(`id-${i}`, '2026-03-01T12:00:00.000Z');
    const writes = Array.from({ length: 5 }, () => store.save(state));
    // While the writes run, every read parses.
    for (let i = 0; i < 20; i++) {
      expect(() => parseState(readFileSync(path, 'utf8'), path, props)).not.toThrow();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(writes);
    expect((await loadState(path, props))!.seen.size).toBe(202);
    expect(readdirSync(join(path, '..'))).toEqual(['props.state']);
  });

  it('is undefined when the file does not exist yet', async () => {
    expect(await loadState(join(dir(), 'missing.state'), props)).toBeUndefined();
  });

  it('fails with a clear LocalEnvironmentError when it cannot be written', async () => {
    const path = join(dir(), 'no', 'such', 'dir', 'x.state');
    await expect(writeStateFile(path, '{}')).rejects.toThrow(LocalEnvironmentError);
    await expect(writeStateFile(path, '{}')).rejects.toThrow(/cannot write state file .*x\.state/);
    // The reason in words, without Node's text naming the temp file beside it.
    await expect(writeStateFile(path, '{}')).rejects.toThrow(new RegExp(`^cannot write state file ${path}: no such file or directory$`));
  });

  it.each([
    ['truncated JSON', serializeState(sample()).slice(0, 40), /not valid JSON/],
    ['an array', '[]', /not a JSON object/],
    ['another version', JSON.stringify({ ...JSON.parse(serializeState(sample())), version: 2 }), /version 2 is not supported/],
    [
      'a bad mark',
      JSON.stringify({ ...JSON.parse(serializeState(sample())), mark: 'yesterday' }),
      /mark must be null or an ISO 8601 timestamp with a zone \(got "yesterday"\)/,
    ],
    [
      'bad counters',
      JSON.stringify({ ...JSON.parse(serializeState(sample())), polls: -1 }),
      /polls must be a whole number, 0 or more \(got -1\)/,
    ],
    ['counters that disagree', JSON.stringify({ ...JSON.parse(serializeState(sample())), lastFullPoll: 9 }), /lastFullPoll is after polls/],
    [
      'a missing field',
      JSON.stringify({ ...JSON.parse(serializeState(sample())), polls: undefined }),
      /polls must be .* \(it is missing\)/,
    ],
    ['an unknown field', JSON.stringify({ ...JSON.parse(serializeState(sample())), sen: {} }), /unknown field "sen"/],
    [
      'bad seen',
      JSON.stringify({ ...JSON.parse(serializeState(sample())), seen: { a: 1 } }),
      /the version of "a" in seen must be a non-empty string \(got 1\)/,
    ],
    [
      'seen as a list',
      JSON.stringify({ ...JSON.parse(serializeState(sample())), seen: [] }),
      /seen must be an object of id → version \(got \[\]\)/,
    ],
    [
      'seen: {} beside a mark',
      JSON.stringify({ ...JSON.parse(serializeState(sample())), seen: {} }),
      /seen is empty while mark\/latest say records were seen/,
    ],
  ])('refuses %s with a UsageError and a hint, never a stack trace', async (_what, text, message) => {
    const path = join(dir(), 'props.state');
    writeFileSync(path, text);
    const error = await loadState(path, props).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).message).toContain(path);
    expect((error as UsageError).hint).toMatch(/new baseline/);
  });

  it('writes no mark beside an empty seen (every record deleted), so what it writes it reads back', async () => {
    const path = join(dir(), 'props.state');
    const emptied = sample();
    emptied.seen.clear();
    await fileStateStore(path).save(emptied);
    const loaded = (await loadState(path, props))!;
    expect(loaded).toMatchObject({ mark: null, latest: null, polls: 7, lastFullPoll: 2 });
    expect(loaded.seen.size).toBe(0);
  });

  it('refuses the state of another family or another client', async () => {
    const path = join(dir(), 'x.state');
    await fileStateStore(path).save(sample());
    await expect(loadState(path, { family: 'clients', scope: null })).rejects.toThrow(/belongs to a watch of props, not clients/);
    const contacts = newState('contacts', 'client:1111');
    await fileStateStore(path).save(contacts);
    await expect(loadState(path, { family: 'contacts', scope: 'client:2222' })).rejects.toThrow(
      /belongs to a watch of contacts \(client:1111\), not contacts \(client:2222\)/,
    );
  });
});
