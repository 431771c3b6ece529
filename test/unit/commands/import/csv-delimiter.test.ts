// The delimiter a CSV input's header line shows (src/commands/import/csv-delimiter.ts), and the
// header line peeked from a stream without losing a byte for the reader: split over chunks, quoted
// line ends, a header without a line end, an empty input.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvDelimiter, HEADER_PEEK_BYTES, peekHeaderLine } from '../../../../src/commands/import/csv-delimiter.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

async function everything(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('latin1');
}

describe('csvDelimiter', () => {
  it('is the comma whenever the header line has one, else its semicolons or tabs, counted outside quotes', () => {
    expect(csvDelimiter(bytes('name,parcelNumber\r\na;b,c\r\n'))).toBe(',');
    expect(csvDelimiter(bytes('name;parcelNumber;yearBuilt\r\nx,y;z\r\n'))).toBe(';');
    expect(csvDelimiter(bytes('name\tparcelNumber\nx;y\n'))).toBe('\t');
    expect(csvDelimiter(bytes('"a;b"\tc\td\n'))).toBe('\t');
    expect(csvDelimiter(bytes('"a,b";c\n'))).toBe(';');
    // One column, or nothing yet: the comma.
    expect(csvDelimiter(bytes('name\nx;y;z\n'))).toBe(',');
    expect(csvDelimiter(bytes(''))).toBe(',');
    // Only the header line counts, and only its first HEADER_PEEK_BYTES.
    expect(csvDelimiter(bytes(`${'a'.repeat(HEADER_PEEK_BYTES)};b\n`))).toBe(',');
    expect(csvDelimiter(bytes('"line\nend";x\n'))).toBe(';');
  });
});

describe('peekHeaderLine', () => {
  it('returns the header line and leaves every byte for the reader, however the input arrives', async () => {
    const text = 'name;"a\nquoted";c\r\nrow;1;2\r\n';
    const stream = new PassThrough();
    const peeking = peekHeaderLine(stream);
    for (const piece of ['na', 'me;"a\n', 'quo', 'ted";c\r', '\nrow;1;2\r\n']) stream.write(bytes(piece));
    stream.end();
    const { head, bytes: rest } = await peeking;
    expect(csvDelimiter(head)).toBe(';');
    expect(head.toString('latin1')).toContain('quoted";c\r');
    expect(await everything(rest)).toBe(text);
  });

  it('a header without a line end, and an empty input, are read whole', async () => {
    const lone = await peekHeaderLine(Readable.from([bytes('name;parcelNumber')]));
    expect(csvDelimiter(lone.head)).toBe(';');
    expect(await everything(lone.bytes)).toBe('name;parcelNumber');
    const empty = await peekHeaderLine(Readable.from([]));
    expect(empty.head.length).toBe(0);
    expect(await everything(empty.bytes)).toBe('');
  });

  it('a failed read is thrown, not waited on', async () => {
    const failing = new PassThrough();
    const peeking = peekHeaderLine(failing);
    failing.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
    await expect(peeking).rejects.toThrow('EIO');
  });
});
