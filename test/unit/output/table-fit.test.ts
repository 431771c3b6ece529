// Tables for people at 80 columns (issue 25 §2): the id is never cut (other columns shrink or go
// first), the "Left out …" notice fits the width, keys keep their state before decoration, and a key
// without expiry reads "never". In process with a fake terminal width (the layout logic).
import { describe, expect, it } from 'vitest';
import { droppedNotice, writeRecord, writeRecords, type View } from '../../../src/output/index.js';
import { tableListEncoder } from '../../../src/output/table.js';
import { fitTable } from '../../../src/output/table-fit.js';
import { cutToWidth, displayWidth } from '../../../src/output/text-width.js';
import { KEYS_VIEW } from '../../../src/commands/keys/view.js';
import { STATUS_VIEW } from '../../../src/commands/auth/status.js';
import { RESOURCES } from '../../../src/core/resources.js';
import { fakeContext } from '../../helpers/fake-context.js';

const ID = '9779bc22-0e3d-40ba-9c1e-3f0a2b7c4d11';

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

async function table(view: View, records: readonly Record<string, unknown>[], columns = 80) {
  // A list verb's plan: it has --wide (not given), so the notice names it.
  const fake = fakeContext({ globals: { output: 'table' }, outputFlags: { wide: false }, env: { COLUMNS: String(columns) } });
  await writeRecords(fake.ctx, from(records), view);
  return { lines: fake.stdout().trimEnd().split('\n'), err: fake.stderr() };
}

describe('tables at 80 columns', () => {
  it('never cut the id: the other columns shrink or are left out first', async () => {
    const records = [1, 2, 3].map((n) => ({
      id: ID,
      name: `Harbor Point Office Tower number ${n} with a long name`,
      propertyType: 'office',
      address: { line1: '1 Pier Road, Building C', city: 'Boston', region: 'MA', postalCode: '02110' },
      updatedAt: '2026-11-27T11:44:25.607Z',
    }));
    const { lines, err } = await table(RESOURCES.props.view, records);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => line.includes(ID))).toHaveLength(3);
    const [notice] = err.split('\n');
    expect(notice).toMatch(/^Left out address\.line1, .* to fit \(--wide shows all\)$/);
    expect(Array.from(notice!).length).toBeLessThanOrEqual(80);
  });

  it('fitTable keeps whole columns whole and drops the least important first', () => {
    expect(fitTable([36, 40, 40, 40], 80, { whole: new Set([0]) })).toEqual({ kept: [0, 1, 2], widths: [36, 17, 17] });
    expect(fitTable([10, 30, 30, 30], 60, { priority: [0, 3, 1, 2] })).toEqual({ kept: [0, 1, 3], widths: [10, 20, 20] });
    expect(fitTable([10, 20], undefined)).toEqual({ kept: [0, 1], widths: [10, 20] });
  });

  it('the notice names what it can and always fits', () => {
    const dropped = ['address.line1', 'address.city', 'address.region', 'address.postalCode', 'updatedAt'];
    expect(droppedNotice(['updatedAt'], 100, true)).toBe(
      'Left out updatedAt to fit 100 columns (--wide shows every column, --fields picks them)',
    );
    for (const width of [40, 60, 80]) {
      const text = droppedNotice(dropped, width, true);
      expect(Array.from(text).length).toBeLessThanOrEqual(width);
      expect(text).toMatch(/^Left out /);
    }
    expect(droppedNotice(dropped, 80, true)).toBe('Left out address.line1, address.city and 3 more to fit (--wide shows all)');
  });

  it('keys list keeps revokedAt and expiresAt before name and scopes; no expiry reads "never"', async () => {
    const keys = [
      {
        prefix: 'apk_live_abc1',
        name: 'ci deploy key for the harbor project',
        scopes: ['api:read', 'files:write'],
        createdAt: '2026-01-01T00:00:00.000Z',
        expiresAt: null,
        lastUsedAt: null,
        revokedAt: '2026-02-01T00:00:00.000Z',
      },
    ];
    const { lines, err } = await table(KEYS_VIEW, keys);
    const header = lines[1]!;
    expect(header).toContain('revokedAt');
    expect(header).toContain('expiresAt');
    expect(header).not.toContain('scopes');
    expect(lines.join('\n')).toContain('never');
    expect(lines.join('\n')).toContain('2026-02-01');
    expect(err).toMatch(/^Left out .*scopes/);
  });

  it('auth status shows "never" for a key without expiry in a table, null in json', async () => {
    const record = { profile: 'default', keyPrefix: 'apk_live_abc1', expiresAt: null };
    const asTable = fakeContext({ globals: { output: 'table' }, env: { COLUMNS: '80' } });
    await writeRecord(asTable.ctx, record, STATUS_VIEW);
    expect(asTable.stdout()).toMatch(/│ expiresAt\s+│ never\s+│/);
    const asJson = fakeContext({ globals: { output: 'json' } });
    await writeRecord(asJson.ctx, record, STATUS_VIEW);
    expect(JSON.parse(asJson.stdout())).toMatchObject({ expiresAt: null });
  });

  it('never cuts a number: a column of numbers is left out rather than narrowed', () => {
    expect(fitTable([10, 20, 20], 55)).toEqual({ kept: [0, 1, 2], widths: [10, 17, 18] });
    expect(fitTable([10, 20, 20], 55, { uncut: new Set([2]) })).toEqual({ kept: [0, 1], widths: [10, 20] });
    // Where it fits whole, it stays: another column narrows instead.
    expect(fitTable([10, 30, 8], 55, { uncut: new Set([2]) })).toEqual({ kept: [0, 1, 2], widths: [10, 27, 8] });
  });

  it('a number wider than the widths the first rows chose is printed whole, the row moved over', async () => {
    const encoder = await tableListEncoder(['id', 'fee', 'note'], [['id'], ['fee'], ['note']], { color: false }, undefined, 2);
    const text = [
      encoder.begin(),
      encoder.record({ id: 'a', fee: 250, note: 'x' }),
      encoder.record({ id: 'b', fee: 975, note: 'y' }),
      encoder.record({ id: 'c', fee: 29_450, note: 'a note far longer than the first rows' }),
      encoder.record({ id: 'd', fee: 123456789012345678901234567890n, note: 'z' }),
      encoder.end(4),
    ].join('');
    const lines = text.trimEnd().split('\n');
    expect(lines[1]).toBe('│ id │ fee │ note │');
    // Text is still cut to its column; numbers are not.
    expect(lines).toContain('│ c  │ 29450 │ a n… │');
    expect(lines).toContain('│ d  │ 123456789012345678901234567890 │ z    │');
  });
});

describe('a cell measured and cut by terminal columns', () => {
  it('counts wide characters two and marks none, and cuts whole characters only', () => {
    expect(displayWidth('plain')).toBe(5);
    expect(displayWidth('東京🏠')).toBe(6);
    expect(displayWidth('Cafe\u0301')).toBe(4);
    // One family emoji is one character of two columns: never cut inside its sequence.
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}';
    expect(displayWidth(family)).toBe(2);
    expect(cutToWidth(`ab${family}cd`, 4)).toBe(`ab${family}`);
    expect(cutToWidth(`ab${family}cd`, 3)).toBe('ab');
    expect(cutToWidth('Cafe\u0301s', 4)).toBe('Cafe\u0301');
    expect(cutToWidth('東京', 3)).toBe('東');
  });
});
