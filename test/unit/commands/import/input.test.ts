// The input reader alone: a read that fails part-way is a usage error naming the input and the row
// it got to, for CSV and NDJSON alike, never a raw stream error or a parser left waiting; text is
// decoded in its encoding (bytes that are not text, and NUL, refused by row and column); blank lines
// are skipped but counted in the row a person is shown (CSV: records below the header; NDJSON: the
// line), never in the journal's; the bounds on a cell, a row, the columns and a JSON array hold with memory flat.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InputFormat, SourceRow } from '../../../../src/commands/import/input-source.js';
import { openInput } from '../../../../src/commands/import/input.js';
import type { InputEncoding } from '../../../../src/commands/import/input-text.js';
import { UsageError } from '../../../../src/core/errors.js';

/** Good records, then the device fails (as EIO on a dying disk or a vanished mount would). */
const EIO = () => Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });

/** Reads the rows; the input fails once the reader has taken row `failAt`. */
async function drain(format: InputFormat, first: string, failAt: number): Promise<unknown> {
  const input = new Readable({ read() {} });
  input.push(first);
  const source = await openInput(undefined, input, '-', format);
  try {
    for await (const row of source.rows) if (row.row === failAt) input.destroy(EIO());
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('openInput', () => {
  it('reports a CSV read that fails part-way with the row it got to', async () => {
    // csv-parse holds the newest record until the next bytes tell it where the record ends.
    const error = await drain('csv', 'name,city\na,b\nc,d\n', 1);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('-: not readable as CSV after row 1: EIO: i/o error, read');
  });

  it('reports an NDJSON read that fails part-way with the row it got to', async () => {
    const error = await drain('ndjson', '{"a":1}\n{"a":2}\n', 2);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('cannot read - after row 2: EIO: i/o error, read');
  });
});

/** The rows of `bytes` read as `format` in `encoding`, or the error that ended the reading. */
async function readRows(bytes: Buffer | Iterable<Buffer>, format: InputFormat, encoding: InputEncoding = 'utf-8') {
  const input = Readable.from(Buffer.isBuffer(bytes) ? [bytes] : bytes);
  const rows: SourceRow[] = [];
  try {
    const source = await openInput(undefined, input, '-', format, encoding);
    for await (const row of source.rows) rows.push(row);
    return { rows, header: source.header };
  } catch (error) {
    return { rows, error: error as UsageError };
  }
}

/** A stream of `total` bytes made of `unit` repeated, made as it is read; `pulled()` says how much was. */
function lazyBytes(head: string, unit: string, total: number) {
  let pulled = 0;
  const chunk = Buffer.from(unit.repeat(Math.ceil(65_536 / unit.length)));
  function* chunks() {
    yield Buffer.from(head);
    for (let sent = 0; sent < total; sent += chunk.length) {
      pulled += chunk.length;
      yield chunk;
    }
  }
  return { chunks: chunks(), pulled: () => pulled };
}

describe('openInput: text in its encoding', () => {
  // "Montréal" and "€" as Excel's plain "CSV" saves them on Windows (windows-1252).
  const excel = Buffer.from('name,city,price\r\nTower,Montr\xe9al,\x80 5\r\n', 'latin1');

  it('refuses bytes that are not UTF-8 with one line naming the row and column, and the encoding that reads them', async () => {
    const { error, rows } = await readRows(excel, 'csv');
    expect(rows).toEqual([]);
    expect(error).toBeInstanceOf(UsageError);
    expect(error!.message).toBe('-: row 1, column city: not UTF-8 text');
    expect(error!.hint).toMatch(/--encoding windows-1252/);
  });

  it('reads windows-1252 and latin1 through the platform decoder', async () => {
    for (const encoding of ['windows-1252', 'latin1'] as const) {
      const { rows, error } = await readRows(excel, 'csv', encoding);
      expect(error).toBeUndefined();
      expect(rows).toEqual([{ row: 1, fileRow: 1, cells: ['Tower', 'Montréal', '€ 5'] }]);
    }
    const ndjson = await readRows(Buffer.from('{"city":"Montr\xe9al"}\n', 'latin1'), 'ndjson', 'windows-1252');
    expect(ndjson.rows[0]!.value).toEqual({ city: 'Montréal' });
  });

  it('keeps UTF-8 text (é, 東京, emoji) as it is, a BOM dropped; a UTF-8 BOM with another encoding is refused', async () => {
    const bom = Buffer.from('\uFEFF"name",city\nCafé 😀,東京\n');
    expect(await readRows(bom, 'csv')).toEqual({ header: ['name', 'city'], rows: [{ row: 1, fileRow: 1, cells: ['Café 😀', '東京'] }] });
    const refused = await readRows(bom, 'csv', 'windows-1252');
    expect(refused.error!.message).toBe('-: starts with a UTF-8 byte-order mark, so it is UTF-8, not windows-1252');
    expect((await readRows(Buffer.from('\uFEFF{"a":1}\n'), 'ndjson', 'latin1')).error!.message).toMatch(/UTF-8 byte-order mark/);
  });

  it('refuses a NUL byte in any encoding, and invalid UTF-8 in NDJSON and JSON by line and column', async () => {
    expect((await readRows(Buffer.from('name,city\nA,B\nC\0D,E\n'), 'csv', 'windows-1252')).error!.message).toBe(
      '-: row 2, column name: holds a NUL byte, which is never text',
    );
    const ndjson = await readRows(Buffer.from('{"a":1}\n\n{"a":"\xff"}\n', 'latin1'), 'ndjson');
    expect(ndjson.rows).toHaveLength(1);
    // The file's line 3: the blank line before it is counted.
    expect(ndjson.error!.message).toBe('-: row 3, column 7: not UTF-8 text');
    const json = Buffer.concat([Buffer.from('[\n {"a": "é"},\n {"a": "'), Buffer.from([0xff]), Buffer.from('"}]')]);
    expect((await readRows(json, 'json')).error!.message).toBe('-: line 3, column 9: not UTF-8 text');
    expect((await readRows(Buffer.from('{"a":"x\0"}\n'), 'ndjson')).error!.message).toMatch(/^-: row 1, column 8: holds a NUL byte/);
  });
});

describe('openInput: blank lines', () => {
  it('skips blank lines, whitespace-only lines and rows of empty cells, whatever the line ends, counting them in the row shown', async () => {
    const { rows, error } = await readRows(Buffer.from('a,b\r\n1,2\r\n\r\n,\r\n \t\r\n3,4\r\n\n'), 'csv');
    expect(error).toBeUndefined();
    // `row` (the journal's key) counts the rows read; `fileRow` every line below the header.
    expect(rows).toEqual([
      { row: 1, fileRow: 1, cells: ['1', '2'] },
      { row: 2, fileRow: 5, cells: ['3', '4'] },
    ]);
    expect((await readRows(Buffer.from('a,b\n1,2\r\n\r\n'), 'csv')).rows).toEqual([{ row: 1, fileRow: 1, cells: ['1', '2'] }]);
  });

  it('numbers a CSV row by the records below the header: a multi-line cell is one, CR, LF and CRLF one line end each', async () => {
    const text = '\n\na,b\n\n"x\r\ny",1\r\n\r,,\n"p\n\nq",2\n3,4';
    const { rows, error } = await readRows(Buffer.from(text), 'csv');
    expect(error).toBeUndefined();
    // Empty lines before the header are not rows; below it: blank, "x y", blank, ",,", "p q", "3,4".
    expect(rows.map(({ row, fileRow }) => [row, fileRow])).toEqual([
      [1, 2],
      [2, 5],
      [3, 6],
    ]);
  });

  it('numbers an NDJSON row by its line, blank and whitespace lines counted, and a JSON element by its place', async () => {
    const ndjson = await readRows(Buffer.from('\n{"a":1}\r\n  \n\nnot json\n{"a":2}'), 'ndjson');
    expect(ndjson.error).toBeUndefined();
    expect(ndjson.rows.map(({ row, fileRow, problem }) => [row, fileRow, problem !== undefined])).toEqual([
      [1, 2, false],
      [2, 5, true],
      [3, 6, false],
    ]);
    const json = await readRows(Buffer.from('[\n\n{"a":1},\n\n{"a":2}]'), 'json');
    expect(json.rows.map(({ row, fileRow }) => [row, fileRow])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('names the row a CSV or NDJSON read stops at by the line a person finds it on', async () => {
    expect((await readRows(Buffer.from('name,city\n\n,\nA,B\nC\0D,E\n'), 'csv')).error!.message).toBe(
      '-: row 4, column name: holds a NUL byte, which is never text',
    );
    const big = lazyBytes('{"a":1}\n\n\n', 'x', 1024 * 1024 + 10);
    expect((await readRows(big.chunks, 'ndjson')).error!.message).toBe('-: row 4 is over 1 MiB (the most one row may hold)');
  });
});

describe('openInput: bounds, with memory flat', () => {
  const MiB = 1024 * 1024;

  it('refuses a 50 MiB cell after reading little more than the row bound', async () => {
    const before = process.memoryUsage();
    const huge = lazyBytes('name,notes\nTower,', 'x', 50 * MiB);
    const { error } = await readRows(huge.chunks, 'csv');
    expect(error!.message).toBe(`-: row 1 is over 1 MiB (the most one row may hold)`);
    expect(huge.pulled()).toBeLessThan(4 * MiB);
    const after = process.memoryUsage();
    expect(after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)).toBeLessThan(48 * MiB);
  });

  it('refuses a cell over 64 KiB, a million columns, a header over 1,000 columns and an NDJSON line over 1 MiB', async () => {
    const cell = await readRows(Buffer.from(`name,notes\nTower,${'x'.repeat(64 * 1024 + 1)}\n`), 'csv');
    expect(cell.error!.message).toBe('-: row 1, column notes: the cell is over 64 KiB (the most one cell may hold)');
    const columns = lazyBytes('name,notes\nTower', ',', 1_000_000);
    expect((await readRows(columns.chunks, 'csv')).error!.message).toBe('-: row 1 has over 1,000 columns (the most a row may have)');
    expect(columns.pulled()).toBeLessThan(MiB);
    const header = await readRows(Buffer.from(`${Array.from({ length: 1001 }, (_, i) => `c${i}`).join(',')}\n`), 'csv');
    expect(header.error!.message).toBe('-: the CSV header has over 1,000 columns (the most a row may have)');
    const line = lazyBytes('{"a":1}\n{"notes":"', 'x', 50 * MiB);
    expect((await readRows(line.chunks, 'ndjson')).error!.message).toBe('-: row 2 is over 1 MiB (the most one row may hold)');
    expect(line.pulled()).toBeLessThan(4 * MiB);
  });

  it('refuses a JSON array over 16 MiB, pointing at NDJSON', async () => {
    const array = lazyBytes('[', '{"a":1},', 40 * MiB);
    const { error } = await readRows(array.chunks, 'json');
    expect(error!.message).toBe('-: a JSON array over 16 MiB is not read whole');
    expect(error!.hint).toMatch(/--format ndjson/);
    expect(array.pulled()).toBeLessThan(18 * MiB);
  });
});
