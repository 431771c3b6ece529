// The output plan: resolved once per run where the context is made; the format (-o, the --out
// extension, the terminal default), fields, the sink, colour and width; the --out path checked once.
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { CSV_DELIMITER_NAMES } from '../../../src/core/csv-style.js';
import { UsageError } from '../../../src/core/errors.js';
import { createContext, type ProcessDeps } from '../../../src/core/factory.js';
import { readGlobalOptions } from '../../../src/core/global-options.js';
import { formatIdentity, OutputPlan, type OutputPlanInput } from '../../../src/core/output-plan.js';
import { tempDir } from '../../helpers/temp.js';

function input(globals: Partial<OutputPlanInput['globals']>, facts: Partial<Omit<OutputPlanInput, 'globals'>> = {}): OutputPlanInput {
  return {
    globals: { output: undefined, out: undefined, fields: undefined, page: undefined, delimiter: undefined, bom: false, ...globals },
    cwd: '/home/ops/reports',
    stdoutIsTTY: false,
    color: true,
    columns: undefined,
    columnsVariable: undefined,
    ...facts,
  };
}

describe('the output plan', () => {
  it("--delimiter and --bom: a csv's separator and mark, refused with another format or another separator", () => {
    const csv = (globals: Partial<OutputPlanInput['globals']>) => OutputPlan.from(input({ output: 'csv', ...globals })).csv;
    expect(csv({})).toEqual({ delimiter: ',', bom: false });
    expect(csv({ delimiter: ';', bom: true })).toEqual({ delimiter: ';', bom: true });
    for (const tab of ['tab', 'TAB', '\\t', '\t']) expect(csv({ delimiter: tab }).delimiter).toBe('\t');
    expect(csv({ delimiter: 'semicolon' }).delimiter).toBe(';');
    // What completion offers is what the plan takes, in the order of the description.
    expect(CSV_DELIMITER_NAMES.map((name) => csv({ delimiter: name }).delimiter)).toEqual([',', ';', '\t']);
    expect(OutputPlan.from(input({ out: 'x.csv', delimiter: ';' })).csv.delimiter).toBe(';');
    expect(() => csv({ delimiter: '|' })).toThrow(/--delimiter "\|": a csv's cells are separated by ",", ";" or tab/);
    expect(() => OutputPlan.from(input({ output: 'json', delimiter: ';' })).csv).toThrow(/--delimiter is for csv output/);
    expect(() => OutputPlan.from(input({ out: 'x.ndjson', bom: true })).csv).toThrow(/--bom is for csv output/);
    // Checked with everything else before any request.
    return expect(OutputPlan.from(input({ output: 'table', bom: true })).ready()).rejects.toBeInstanceOf(UsageError);
  });

  it('records a csv written another way in the format an interrupted export must be resumed with', () => {
    expect(formatIdentity('csv', { delimiter: ',', bom: false })).toBe('csv');
    expect(formatIdentity('csv', { delimiter: ';', bom: false })).toBe('csv separated by semicolons');
    expect(formatIdentity('csv', { delimiter: '\t', bom: true })).toBe('csv separated by tabs, with a BOM');
    expect(formatIdentity('csv', { delimiter: ',', bom: true })).toBe('csv with a BOM');
    expect(formatIdentity('ndjson', { delimiter: ';', bom: true })).toBe('ndjson');
  });

  it('takes -o when given, else the --out extension, else the terminal default', () => {
    const terminal = { stdoutIsTTY: true };
    expect(OutputPlan.from(input({ output: 'csv', out: 'x.json' })).format).toBe('csv');
    expect(OutputPlan.from(input({ out: 'x.CSV' }, terminal)).format).toBe('csv');
    expect(OutputPlan.from(input({ out: 'x.jsonl' }, terminal)).format).toBe('ndjson');
    expect(OutputPlan.from(input({}, terminal)).format).toBe('table');
    // `--out -` is stdout: the terminal default stands.
    const dash = OutputPlan.from(input({ out: '-' }, terminal));
    expect(dash.format).toBe('table');
    expect(dash.sink).toEqual({ kind: 'stdout' });
  });

  it('is the one place the terminal default is decided: table on a terminal, json otherwise', () => {
    expect(readGlobalOptions({}, {}).output).toBeUndefined();
    expect(readGlobalOptions({ output: 'ndjson' }, {}).output).toBe('ndjson');
    const terminal = OutputPlan.from(input({}, { stdoutIsTTY: true }));
    const piped = OutputPlan.from(input({}));
    expect([terminal.format, terminal.formatExplicit, piped.format, piped.formatExplicit]).toEqual(['table', false, 'json', false]);
    const given = OutputPlan.from(input({ output: 'json' }, { stdoutIsTTY: true }));
    expect([given.format, given.formatExplicit]).toEqual(['json', true]);
  });

  it('colour: --no-color or NO_COLOR set to anything but the empty string turns it off (no-color.org)', () => {
    expect(readGlobalOptions({}, {}).color).toBe(true);
    expect(readGlobalOptions({}, { NO_COLOR: '1' }).color).toBe(false);
    expect(readGlobalOptions({}, { NO_COLOR: '' }).color).toBe(true);
    expect(readGlobalOptions({ color: false }, { NO_COLOR: '' }).color).toBe(false);
  });

  it('keeps an --out extension that names no format until a writer asks for the format', () => {
    const plan = OutputPlan.from(input({ out: 'body.bin' }));
    expect(plan.sink).toEqual({ kind: 'file', given: 'body.bin', path: '/home/ops/reports/body.bin' });
    expect(() => plan.format).toThrow(UsageError);
    expect(() => plan.format).toThrow('--out body.bin: unknown extension .bin to tell the format from');
  });

  it('colour and width only for a terminal, never for a file', () => {
    const terminal = OutputPlan.from(input({}, { stdoutIsTTY: true, columns: 80 }));
    expect([terminal.color, terminal.width, terminal.terminal]).toEqual([true, 80, true]);
    const file = OutputPlan.from(input({ out: 'x.csv' }, { stdoutIsTTY: true, columns: 80 }));
    expect([file.color, file.width, file.terminal]).toEqual([false, undefined, false]);
    const piped = OutputPlan.from(input({}, { columnsVariable: '100' }));
    expect([piped.color, piped.width, piped.terminal]).toEqual([false, 100, false]);
  });

  it('reads --fields once into paths and its projection, and keeps a bad one for the writer', () => {
    const plan = OutputPlan.from(input({ fields: ['id', 'address.city'] }));
    expect(plan.fields).toMatchObject({ names: ['id', 'address.city'], paths: [['id'], ['address', 'city']] });
    expect(plan.projection({ id: 'p1', address: { city: 'Leeds', zip: 'LS1' }, notes: 'x' })).toEqual({
      id: 'p1',
      address: { city: 'Leeds' },
    });
    const whole = { id: 'p1', notes: 'x' };
    expect(OutputPlan.from(input({})).projection(whole)).toBe(whole);
    expect(() => OutputPlan.from(input({ fields: ['a..b'] })).fields).toThrow('--fields: "a..b" is not a field path');
  });

  it('-o against an --out name that says another format: written as -o says, with what to warn of', () => {
    expect(OutputPlan.from(input({ output: 'parquet', out: 'data.csv' })).mismatch).toBe(
      '-o parquet writes parquet into data.csv, whose name says csv',
    );
    expect(OutputPlan.from(input({ output: 'parquet', out: 'data.csv' })).format).toBe('parquet');
    for (const globals of [
      { output: 'ndjson', out: 'x.jsonl' },
      { output: 'csv', out: 'x.txt' },
      { out: 'x.csv' },
      { output: 'json' },
    ] as const) {
      expect(OutputPlan.from(input(globals)).mismatch, JSON.stringify(globals)).toBeUndefined();
    }
  });

  it('--fields keeps each name once, in the order first given (a repeated one gave two columns)', () => {
    expect(OutputPlan.from(input({ fields: ['id', 'name', 'id', 'address.city', 'name'] })).fields).toMatchObject({
      names: ['id', 'name', 'address.city'],
    });
  });

  it('checks the --out path once, however many writers ask', async () => {
    const dir = tempDir('appraisal-plan-');
    const plan = OutputPlan.from(input({ out: 'x.csv' }, { cwd: dir }));
    const first = plan.target();
    expect(plan.target()).toBe(first);
    expect(await first).toEqual({ path: join(dir, 'x.csv'), mode: undefined });
    await writeFile(join(dir, 'real.csv'), '');
    await symlink(join(dir, 'real.csv'), join(dir, 'link.csv'));
    await expect(OutputPlan.from(input({ out: 'link.csv' }, { cwd: dir })).target()).rejects.toThrow(/is a symbolic link/);
  });

  it('is built once per run, where the context is made', () => {
    const from = vi.spyOn(OutputPlan, 'from');
    const stdout = new PassThrough();
    const deps: ProcessDeps = {
      argv: [],
      env: {},
      stdin: new PassThrough(),
      stdout,
      stderr: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      cwd: '/home/ops/reports',
      signal: new AbortController().signal,
      version: '0.0.0-test',
    };
    const globals = readGlobalOptions({ output: 'csv', out: 'x.csv' }, {});
    const { context } = createContext(deps, globals);
    expect([context.output.format, context.output.outPath, context.output.format]).toEqual(['csv', 'x.csv', 'csv']);
    expect(context.output).toBe(context.output);
    expect(from).toHaveBeenCalledTimes(1);
    from.mockRestore();
  });
});
