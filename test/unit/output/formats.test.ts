import { describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../../src/core/global-options.js';
import { UsageError } from '../../../src/core/errors.js';
import { writeRecord, writeRecords, type View } from '../../../src/output/index.js';
import { csvCell, csvRow } from '../../../src/output/csv.js';
import { safeText, tableCell, wrapText } from '../../../src/output/table.js';
import { truncate } from '../../../src/output/text-width.js';
import { fakeContext } from '../../helpers/fake-context.js';

const view: View = { label: 'properties', columns: ['id', 'address.city', 'value'] };

const records = [
  { id: 'p1', address: { city: 'Leeds', zip: 'LS1' }, value: 250000, tags: ['a'] },
  { id: 'p2', address: { city: 'York, North', zip: null }, value: null, tags: [] },
];

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function list(globals: Partial<GlobalOptions>, items: readonly Record<string, unknown>[] = records) {
  const fake = fakeContext({ globals });
  const result = await writeRecords(fake.ctx, from(items), view);
  return { ...result, out: fake.stdout(), err: fake.stderr() };
}

async function one(globals: Partial<GlobalOptions>, record: Record<string, unknown> = records[0]!, extra = {}) {
  const fake = fakeContext({ globals, ...extra });
  await writeRecord(fake.ctx, record, view);
  return { out: fake.stdout(), err: fake.stderr() };
}

describe('json', () => {
  it('prints a list as one array, one compact record per line', async () => {
    const { out, count } = await list({ output: 'json' });
    expect(count).toBe(2);
    expect(out).toBe(`[\n${JSON.stringify(records[0])},\n${JSON.stringify(records[1])}\n]\n`);
    expect(JSON.parse(out)).toEqual(records);
  });

  it('prints an empty list as []', async () => {
    expect((await list({ output: 'json' }, [])).out).toBe('[]\n');
  });

  it('projects records to --fields, nested as in the source', async () => {
    const { out } = await list({ output: 'json', fields: ['id', 'address.city'] });
    expect(JSON.parse(out)).toEqual([
      { id: 'p1', address: { city: 'Leeds' } },
      { id: 'p2', address: { city: 'York, North' } },
    ]);
  });

  it('pretty-prints a single record', async () => {
    const { out } = await one({ output: 'json' });
    expect(out).toBe(`${JSON.stringify(records[0], null, 2)}\n`);
    expect((await one({ output: 'json', fields: ['value'] })).out).toBe('{\n  "value": 250000\n}\n');
  });

  it('refuses an empty segment in --fields', async () => {
    await expect(list({ output: 'json', fields: ['address..city'] })).rejects.toThrow(UsageError);
  });
});

describe('parquet', () => {
  it('refuses one record in one line: a Parquet file is a list written to a file', async () => {
    const error = await one({ output: 'parquet' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('-o parquet writes a list to a file; one record is shown with -o json, ndjson, csv or table');
  });
});

describe('json and ndjson on a terminal', () => {
  // A service's text with a C1 CSI (clears the screen on terminals that take 8-bit controls), a
  // right-to-left override that disguises what follows, and a line separator: JSON.stringify leaves all three raw.
  const hostile = { id: 'p1', address: { city: 'Bo\u009b2Jston\u202egnp.exe' }, value: 1, note: 'a\u2028b' };

  it('spells them as \\u escapes on a terminal: the same value, nothing raw on screen', async () => {
    for (const output of ['json', 'ndjson'] as const) {
      const fake = fakeContext({ globals: { output }, stdoutIsTTY: true });
      await writeRecords(fake.ctx, from([hostile]), view);
      const out = fake.stdout();
      expect(out).toContain('Bo\\u009b2Jston\\u202egnp.exe');
      expect(out).not.toMatch(/[\u009b\u202e\u2028]/u);
      const parsed: unknown =
        output === 'json'
          ? JSON.parse(out)
          : out
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line) as unknown);
      expect(parsed).toEqual([hostile]);
      const single = fakeContext({ globals: { output }, stdoutIsTTY: true });
      await writeRecord(single.ctx, hostile, view);
      expect(single.stdout()).not.toMatch(/[\u009b\u202e\u2028]/u);
      expect(JSON.parse(single.stdout())).toEqual(hostile);
    }
  });

  it('writes them as they are to a file or a pipe (data is never touched)', async () => {
    const { out } = await list({ output: 'ndjson' }, [hostile]);
    expect(out).toBe(`${JSON.stringify(hostile)}\n`);
    expect(out).toContain('\u202e');
  });
});

describe('ndjson', () => {
  it('prints one compact record per line', async () => {
    const { out } = await list({ output: 'ndjson' });
    expect(out).toBe(`${JSON.stringify(records[0])}\n${JSON.stringify(records[1])}\n`);
  });

  it('prints nothing for an empty list, and one line for one record', async () => {
    expect((await list({ output: 'ndjson' }, [])).out).toBe('');
    expect((await one({ output: 'ndjson', fields: ['id'] })).out).toBe('{"id":"p1"}\n');
  });
});

describe('csv', () => {
  it("prints a header row and RFC 4180 rows with CRLF: every field (no schema: the first record's), arrays as JSON text", async () => {
    const { out } = await list({ output: 'csv' });
    expect(out).toBe('id,address.city,address.zip,value,tags\r\n' + 'p1,Leeds,LS1,250000,"[""a""]"\r\n' + 'p2,"York, North",,,[]\r\n');
  });

  it('takes its columns from the published schema, in schema order, and names any field it leaves out', async () => {
    const fake = fakeContext({ globals: { output: 'csv' } });
    const schemaView: View = { ...view, recordColumns: ['id', 'value', 'address.city', 'address.zip'] };
    await writeRecords(fake.ctx, from([...records, { id: 'p3', extra: { a: 1 }, address: { city: 'Hull', floor: 2 } }]), schemaView);
    expect(fake.stdout()).toBe(
      'id,value,address.city,address.zip\r\n' + 'p1,250000,Leeds,LS1\r\n' + 'p2,,"York, North",\r\n' + 'p3,,Hull,\r\n',
    );
    expect(fake.stderr()).toBe(
      'warning: csv: some records have fields that are not columns, left out: tags, extra, address.floor; get them with --fields id,value,address.city,address.zip,tags,extra,address.floor (or -o ndjson)\n',
    );
  });

  it('uses --fields for the columns and nested values as JSON', async () => {
    const { out } = await list({ output: 'csv', fields: ['id', 'address', 'tags'] });
    expect(out).toBe(
      'id,address,tags\r\n' +
        'p1,"{""city"":""Leeds"",""zip"":""LS1""}","[""a""]"\r\n' +
        'p2,"{""city"":""York, North"",""zip"":null}",[]\r\n',
    );
  });

  it('--delimiter ";" and --bom: quotes the cells that hold a semicolon (and a comma, for a reader that guesses), the mark once before the header', async () => {
    const items = [{ id: 'p1', address: { city: 'Lyon; Rhône' }, value: 'a,b' }];
    expect((await list({ output: 'csv', delimiter: ';', bom: true }, items)).out).toBe(
      '\ufeffid;address.city;value\r\np1;"Lyon; Rhône";"a,b"\r\n',
    );
    expect((await list({ output: 'csv', delimiter: 'tab' }, [{ id: 'p\t1', address: { city: 'x' }, value: 1 }])).out).toBe(
      'id\taddress.city\tvalue\r\n"p\t1"\tx\t1\r\n',
    );
    // An empty list is its header alone, after the mark.
    expect((await list({ output: 'csv', delimiter: ';', bom: true }, [])).out).toBe('\ufeffid;address.city;value\r\n');
  });

  it('prints just the header for an empty list', async () => {
    expect((await list({ output: 'csv' }, [])).out).toBe('id,address.city,value\r\n');
  });

  it('escapes only what needs escaping, and leaves data as it is', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(' padded ')).toBe(' padded ');
    expect(csvCell('=SUM(A1:A2)')).toBe('=SUM(A1:A2)');
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvRow(['a', 1, null])).toBe('a,1,\r\n');
  });

  it('prints a single record as header and one row', async () => {
    expect((await one({ output: 'csv' })).out).toBe('id,address.city,address.zip,value,tags\r\np1,Leeds,LS1,250000,"[""a""]"\r\n');
  });
});

describe('table', () => {
  it('prints the view columns with a header and no colour', async () => {
    const { out } = await list({ output: 'table' });
    const lines = out.trimEnd().split('\n');
    expect(lines[1]).toMatch(/│ id\s+│ address\.city\s+│ value\s+│/);
    expect(lines[2]).toMatch(/^├─+┼─+┼─+┤$/);
    expect(lines[3]).toMatch(/│ p1\s+│ Leeds\s+│ 250000 │/);
    expect(lines[4]).toMatch(/│ p2\s+│ York, North\s+│\s+│/);
    expect(lines).toHaveLength(6);
    expect(out).not.toContain('\u001b[');
  });

  it('uses --fields, truncates long cells and shows nested values as JSON', async () => {
    const long = { id: 'x'.repeat(100), address: { city: 'Leeds' } };
    const { out } = await list({ output: 'table', fields: ['id', 'address'] }, [long]);
    expect(out).toContain(`${'x'.repeat(39)}…`);
    expect(out).not.toContain('x'.repeat(40));
    expect(out).toContain('{"city":"Leeds"}');
  });

  it('says so on stderr when the list is empty', async () => {
    const { out, err } = await list({ output: 'table' }, []);
    expect(out).toBe('');
    expect(err).toBe('No properties found\n');
  });

  it('prints large lists as one table: one header, the widths of the first rows kept', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => ({
      id: `p${String(i).padStart(4, '0')}`,
      address: { city: i === 2400 ? 'a much longer city name' : 'c' },
      value: i,
    }));
    const { out, count } = await list({ output: 'table' }, many);
    expect(count).toBe(2500);
    expect(out.match(/│ id /g)).toHaveLength(1);
    expect(out.match(/│ p\d+ /g)).toHaveLength(2500);
    const lines = out.trimEnd().split('\n');
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    expect(out).toContain('│ a much long… │');
  });

  it('lines up East Asian text, emoji and combining marks by the columns a terminal gives them', async () => {
    // Independent of the source's table: CJK and emoji take two columns, a combining mark none.
    const columns = (line: string) =>
      [...line].reduce((sum, c) => sum + (/[\u3000-\u9fff\u{1f300}-\u{1faff}]/u.test(c) ? 2 : /\p{M}/u.test(c) ? 0 : 1), 0);
    const wide = [
      { id: 'p1', address: { city: '東京タワー🏠' }, value: 1 },
      { id: 'p2', address: { city: 'Cafe\u0301' }, value: 2 },
      { id: 'p3', address: { city: '大阪'.repeat(30) }, value: 3 },
    ];
    const { out } = await list({ output: 'table' }, wide);
    const lines = out.trimEnd().split('\n');
    expect(new Set(lines.map(columns))).toEqual(new Set([columns(lines[0]!)]));
    // Cut to the 40-column cell limit by columns, not by characters: 19 characters of 大阪 and the ….
    expect(out).toContain(`│ ${'大阪'.repeat(9)}大… │`);
  });

  it('colours only on a terminal with colour on', async () => {
    const fake = fakeContext({ globals: { output: 'table', color: true }, stdoutIsTTY: true });
    await writeRecords(fake.ctx, from(records), view);
    expect(fake.stdout()).toContain('\u001b[');
  });

  it('prints a single record as key/value rows of dotted keys', async () => {
    const { out } = await one({ output: 'table' });
    expect(out).toMatch(/│ id\s+│ p1\s+│/);
    expect(out).toMatch(/│ address\.city\s+│ Leeds\s+│/);
    expect(out).toMatch(/│ address\.zip\s+│ LS1\s+│/);
    // A list of plain values reads as people write it (scopes: "api:read, api:write").
    expect(out).toMatch(/│ tags\s+│ a\s+│/);
  });

  it('limits a single record to --fields, expanding objects', async () => {
    const { out } = await one({ output: 'table', fields: ['address', 'value'] });
    expect(out).toMatch(/│ address\.city\s+│ Leeds\s+│/);
    expect(out).toMatch(/│ value\s+│ 250000\s+│/);
    expect(out).not.toContain('p1');
  });

  it('wraps long values of a single record to the terminal width', async () => {
    const stdout = Object.assign(new (await import('node:stream')).PassThrough(), { columns: 40 });
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    const fake = fakeContext({ globals: { output: 'table' }, stdout, stdoutIsTTY: true });
    await writeRecord(fake.ctx, { id: 'p1', description: 'word '.repeat(30).trim() }, view);
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(40);
    expect(lines.join('\n').match(/word/g)).toHaveLength(30);
  });

  it('keeps terminal escapes and line breaks in data away from the terminal', () => {
    expect(safeText('a\u001b[2Jb')).toBe('a\uFFFD[2Jb');
    expect(safeText('one\ntwo\r\nthree')).toBe('one↵two↵three');
    expect(safeText('a\u202eb')).toBe('a\uFFFDb');
    expect(tableCell('é'.repeat(50), { truncate }).length).toBe(40);
    expect(wrapText('aaaa bb ccccccccc', 4)).toBe('aaaa\nbb\ncccc\ncccc\nc');
  });
});
