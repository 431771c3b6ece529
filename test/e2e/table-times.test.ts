// Issue 25 §2: `-o table` timestamps are readable at 80 columns. On a terminal of 80 columns (in
// process: stdout a terminal as run() makes one; real terminals are prompts' and hostile's tests)
// `props list` shows each time to the minute in UTC (`2025-07-04 20:03Z`), never an ISO string cut
// with `…`; json, ndjson and csv keep the service's exact value.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tableTime } from '../../src/output/table.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
type Prop = { id: string; createdAt: string; updatedAt: string };
let props: Prop[];

beforeAll(async () => {
  mock = await startMock({ records: 6, seed: 11, http: true });
  env = { ...isolatedEnv(), ...mock.env };
  const listed = await run(['props', 'list', '-o', 'json'], { env });
  expect(listed.code, listed.stderr).toBe(0);
  props = JSON.parse(listed.stdout) as Prop[];
});
afterAll(async () => {
  await mock?.stop();
});

describe('tableTime', () => {
  it.each([
    ['2025-07-04T20:03:29.194Z', '2025-07-04 20:03Z'],
    ['2025-07-04T20:03Z', '2025-07-04 20:03Z'],
    ['2025-07-04T22:03:29+02:00', '2025-07-04 20:03Z'],
    ['2025-12-31T23:59:59.999-01:00', '2026-01-01 00:59Z'],
    ['2025-07-04', '2025-07-04'],
    ['not a time', 'not a time'],
    ['2025-13-45T99:99:00Z', '2025-13-45T99:99:00Z'],
  ])('%s → %s', (text, shown) => {
    expect(tableTime(text)).toBe(shown);
  });
});

describe('props list on a terminal of 80 columns', () => {
  it('shows id, createdAt and updatedAt whole, the times to the minute', async () => {
    const result = await run(['props', 'list', '--fields', 'id,createdAt,updatedAt'], {
      env: { ...env, TERM: 'xterm-256color', LANG: 'C.UTF-8' },
      tty: { stdout: true },
      columns: 80,
    });
    expect(result.code, result.stderr).toBe(0);
    // What the terminal shows: the text without its colours.
    const screen = stripVTControlCharacters(result.stdout);
    const lines = screen.split('\n');
    expect(Math.max(...lines.map((line) => line.trimEnd().length))).toBeLessThanOrEqual(80);
    for (const prop of props) {
      const row = `│ ${prop.id} │ ${tableTime(prop.createdAt)} │ ${tableTime(prop.updatedAt)} │`;
      expect(row).toMatch(/│ \d{4}-\d\d-\d\d \d\d:\d\dZ │ \d{4}-\d\d-\d\d \d\d:\d\dZ │$/);
      expect(lines, screen).toContain(row);
    }
    expect(screen).not.toContain('…');
    expect(`${screen}${result.stderr}`).not.toMatch(/Left out/);
  });
});

describe('the other formats keep the exact value', () => {
  it('ndjson and csv hold the service’s timestamps as sent', async () => {
    const ndjson = await run(['props', 'list', '-o', 'ndjson', '--fields', 'id,createdAt,updatedAt'], { env });
    expect(
      ndjson.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Prop),
    ).toEqual(props.map(({ id, createdAt, updatedAt }) => ({ id, createdAt, updatedAt })));
    const csv = await run(['props', 'list', '-o', 'csv', '--fields', 'id,createdAt,updatedAt'], { env });
    expect(parse(csv.stdout, { columns: true })).toEqual(props.map(({ id, createdAt, updatedAt }) => ({ id, createdAt, updatedAt })));
    expect(props[0]!.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
