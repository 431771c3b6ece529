// The split of a CSV without quotes (unquoted-csv.ts) against csv-parse with the reader's options:
// the same records from the same bytes, however the bytes are cut into chunks — every line end (CRLF,
// LF, CR, mixed, one cut between CR and LF), blank lines, rows of empty cells, a last line without
// its end, bytes past ASCII — and a quote (the file changed since the scan) refused.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Transform } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvParser } from '../../../../src/commands/import/input.js';
import { UsageError } from '../../../../src/core/errors.js';

/** The records `parser` makes of `chunks`. */
async function records(parser: Transform, chunks: Buffer[]): Promise<string[][]> {
  const out: string[][] = [];
  await pipeline(Readable.from(chunks), parser, async (rows: AsyncIterable<string[]>) => {
    for await (const row of rows) out.push(row);
  });
  return out;
}

const INPUTS = [
  '',
  'name,city\n',
  'name,city\na,Boston\nb,Denver\n',
  'name,city\r\na,Boston\r\nb,Denver\r\n',
  'name,city\ra,Boston\rb,Denver',
  'name,city\r\na,Boston\nb,Denver\rc,Reno\r\n',
  'name,city\n\n\na,Boston\r\n\r\n,\n,,,\n  \nb,\n',
  'name,city\na,Boston\r',
  '\n\r\nname,city\na,Bost\xc3\xa9n\n',
  'x',
];

describe('UnquotedCsv', () => {
  it.each(INPUTS.map((text) => [JSON.stringify(text), text]))(
    'makes the records csv-parse makes of %s, cut anywhere',
    async (_name, text) => {
      const bytes = Buffer.from(text, 'latin1');
      const expected = await records(await csvParser('-', false), [bytes]);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)].filter((chunk) => chunk.length > 0);
        expect(await records(await csvParser('-', true), chunks)).toEqual(expected);
      }
    },
  );

  it('refuses a quote: the file changed since the scan found none', async () => {
    const error = await records(await csvParser('in.csv', true), [Buffer.from('name,city\n"a",b\n')]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('in.csv: the file changed while it was read (a quote where the first read found none)');
  });
});
