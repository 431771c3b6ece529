// The split of a CSV without quotes (unquoted-csv.ts) against csv-parse with the reader's own options
// (input.ts csvParser): the same records from the same bytes however they are cut into chunks, and
// through the whole reader (openInput: the byte-order mark, the bounds, the decoding, the column
// count, blank rows) the same header, rows and refusals — on generated unquoted files (CRLF, LF and
// CR mixed, blank and whitespace lines, rows of empty cells, with or without a last line end,
// UTF-8 text and bytes that are not UTF-8) and on the bounds' edge cases. A quote, which the scan
// found none of, means the file changed since: refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { csvParser } from '../../../../src/commands/import/csv-input.js';
import type { SourceRow } from '../../../../src/commands/import/input-source.js';
import { openInput } from '../../../../src/commands/import/input.js';
import type { InputEncoding } from '../../../../src/commands/import/input-text.js';
import { UsageError } from '../../../../src/core/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'unquoted-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The records `parser` makes of `chunks`. */
async function records(parser: Transform, chunks: Buffer[]): Promise<string[][]> {
  const out: string[][] = [];
  await pipeline(Readable.from(chunks), parser, async (rows: AsyncIterable<string[]>) => {
    for await (const row of rows) out.push(row);
  });
  return out;
}

let files = 0;
/** What the whole reader makes of the file `bytes`: its header, rows, and the line that refused it. */
async function read(bytes: Buffer, unquoted: boolean, encoding: InputEncoding = 'utf-8') {
  const path = join(dir, `in-${files++}.csv`);
  writeFileSync(path, bytes);
  const rows: SourceRow[] = [];
  let header: string[] | undefined;
  try {
    const source = await openInput(path, Readable.from([]), 'in.csv', 'csv', encoding, { unquoted });
    header = source.header;
    for await (const row of source.rows) rows.push(row);
    return { header, rows, error: undefined };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { header, rows, error: (error as UsageError).message };
  }
}

// Cells of ASCII, whitespace, UTF-8 text and (rarely) a byte that is not UTF-8; never a quote.
const cell = fc
  .array(fc.constantFrom('a', 'B', '7', ' ', '\t', '-', '.', 'é', '東京', '😀', '\\', "'", '\xff'), { maxLength: 6 })
  .map((parts) => parts.join(''));
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
// A line: cells (one to four: the column count varies), a blank line, or whitespace alone; `d` between cells.
const lineWith = (d: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.array(cell, { minLength: 1, maxLength: 4 }).map((cells) => cells.join(d)) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', d, d.repeat(3), '\t ') },
  );
/** A file: a header, lines with their ends (the last one maybe without), maybe a UTF-8 byte-order mark. */
/** `d`: the delimiter, which the header line shows (a semicolon where Excel's decimal mark is a comma). */
const fileWith = (d: string) =>
  fc
    .record({
      bom: fc.boolean(),
      header: fc.constantFrom(`name${d}city`, `name${d}city${d}region${d}zip`, 'a'),
      lines: fc.array(fc.tuple(lineWith(d), lineEnd), { maxLength: 12 }),
      lastEnd: fc.boolean(),
    })
    .map(({ bom, header, lines, lastEnd }) => {
      const text = `${header}\n${lines.map(([text, end]) => text + end).join('')}`;
      const cut = lastEnd || lines.length === 0 ? text : text.replace(/(\r\n|\n|\r)$/, '');
      // Characters past U+00FF as UTF-8; \xff stays the one byte that is never UTF-8.
      const bytes = Buffer.concat([...cut].map((char) => (char === '\xff' ? Buffer.from([0xff]) : Buffer.from(char, 'utf8'))));
      return bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) : bytes;
    });
const file = fileWith(',');

describe('UnquotedCsv', () => {
  it('makes the records csv-parse makes, however the bytes are cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(file, fc.array(fc.nat(), { maxLength: 4 }), async (bytes, cuts) => {
        const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((start, index) => bytes.subarray(start, [...at, bytes.length][index])).filter((c) => c.length > 0);
        expect(await records(await csvParser('-', true), chunks)).toEqual(await records(await csvParser('-', false), [bytes]));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a file as csv-parse does through the whole reader: header, rows, and the line that refuses it (commas or semicolons)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(file, fileWith(';')), fc.constantFrom<InputEncoding>('utf-8', 'windows-1252'), async (bytes, encoding) => {
        expect(await read(bytes, true, encoding)).toEqual(await read(bytes, false, encoding));
      }),
      { numRuns: 150 },
    );
  });

  it('makes one line end of a CRLF cut between two chunks, and an empty line of a CR and an LF that are two', async () => {
    const chunks = ['a,b\r', '\n1,2\r', '\r\n', '\n3,4'].map((text) => Buffer.from(text));
    const expected = [['a', 'b'], ['1', '2'], [''], [''], ['3', '4']];
    expect(await records(await csvParser('-', false), [Buffer.concat(chunks)])).toEqual(expected);
    expect(await records(await csvParser('-', true), chunks)).toEqual(expected);
  });

  it.each([
    ['no header', ''],
    ['a blank header', '\n\n'],
    ['an empty column name', 'name,,city\na,b,c\n'],
    ['a column named twice', 'name,name\na,b\n'],
    ['a NUL byte', 'name,city\na,Bos\0ton\n'],
    ['a row over 1,000 cells', `name,city\n${','.repeat(1001)}x\n`],
    ['a header over 1,000 columns', `${'c,'.repeat(1001)}c\n`],
    ['a cell over 64 KiB', `name,city\na,${'x'.repeat(64 * 1024 + 1)}\n`],
    ['a row over 1 MiB', `name,city\n${'xxxxxxxxx,'.repeat(110_000)}\n`],
  ])('refuses %s with the same line', async (_what, text) => {
    const bytes = Buffer.from(text, 'latin1');
    const split = await read(bytes, true);
    expect(split).toEqual(await read(bytes, false));
  });

  it('refuses a quote: the file changed since the scan found none', async () => {
    const error = await records(await csvParser('in.csv', true), [Buffer.from('name,city\n"a",b\n')]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('in.csv: the file changed while it was read (a quote where the first read found none)');
  });
});
