import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { FORMATS, readList, readRecord } from '../helpers/output-formats.js';

let mock: MockServer;
let env: Record<string, string | undefined>;
const cli = (...args: string[]) => runCli(args, { env });

beforeAll(async () => {
  mock = await startMock({ records: 3 });
  env = { ...isolatedEnv(), ...mock.env };
});
afterAll(() => mock?.stop());

describe('ref enums', () => {
  it('prints the service object as it is in json', async () => {
    const result = await cli('ref', 'enums', '-o', 'json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const enums = JSON.parse(result.stdout) as Record<string, string[]>;
    expect(Object.keys(enums)).toEqual(expect.arrayContaining(['propertyTypes', 'assignmentStatuses', 'reportTypes', 'clientTypes']));
    expect(enums.assignmentStatuses).toContain('completed');
  });

  it.each(['ndjson', 'csv'] as const)('prints one row per enum with its values (%s)', async (format) => {
    const [json, result] = await Promise.all([cli('ref', 'enums', '-o', 'json'), cli('ref', 'enums', '-o', format)]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const enums = JSON.parse(json.stdout) as Record<string, string[]>;
    const { columns, records } = readList(format, result.stdout);
    if (columns) expect(columns).toEqual(['name', 'values']);
    expect(records.map((r) => r.name)).toEqual(Object.keys(enums));
    const statuses = records.find((r) => r.name === 'assignmentStatuses')!.values;
    expect(statuses).toEqual(format === 'ndjson' ? enums.assignmentStatuses : enums.assignmentStatuses!.join(', '));
  });

  it('prints a table with one row per enum and all of its values (table)', async () => {
    const [json, result] = await Promise.all([cli('ref', 'enums', '-o', 'json'), cli('ref', 'enums', '-o', 'table')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const enums = JSON.parse(json.stdout) as Record<string, string[]>;
    const rows = readRecord('table', result.stdout);
    expect(Object.keys(rows)).toEqual(Object.keys(enums));
    // Long lists wrap onto continuation lines; compare without the white space wrapping moved.
    for (const [name, values] of Object.entries(enums)) expect(String(rows[name]).replace(/\s/g, '')).toBe(values.join(', ').replace(/\s/g, ''));
  });
});

describe('ref designations', () => {
  it.each(FORMATS)('lists code and name (%s)', async (format) => {
    const result = await cli('ref', 'designations', '-o', format);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { columns, records } = readList(format, result.stdout);
    if (columns) expect(columns).toEqual(['code', 'name']);
    expect(records.map((r) => r.code)).toEqual(expect.arrayContaining(['MAI', 'SRA']));
    expect(records.find((r) => r.code === 'MAI')?.name).toBe('Member, Appraisal Institute');
  });
});
