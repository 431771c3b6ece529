// The quick scan of an input's bytes (input-scan.ts): it vouches only for files the reader takes
// whole — each case it calls clean is read through by openInput without a refusal — and sends
// anything the reader could refuse (not text, NUL, a byte-order mark in another encoding, a long
// record, a quote where the parser takes none) to be read through row by row.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { InputFormat } from '../../../../src/commands/import/input-source.js';
import { openInput } from '../../../../src/commands/import/input.js';
import { scanClean } from '../../../../src/commands/import/input-scan.js';
import type { InputEncoding } from '../../../../src/commands/import/input-text.js';

const dir = mkdtempSync(join(tmpdir(), 'input-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** The scan's verdict on `bytes`, and whether the reader takes every row of them. */
async function verdicts(bytes: Buffer | string, format: InputFormat, encoding: InputEncoding = 'utf-8') {
  const path = join(dir, `input-${files++}.${format}`);
  writeFileSync(path, bytes);
  const clean = (await scanClean(path, format, encoding)) !== false;
  let readable = true;
  try {
    const source = await openInput(undefined, Readable.from([Buffer.from(bytes)]), path, format, encoding);
    for await (const _row of source.rows);
  } catch {
    readable = false;
  }
  return { clean, readable };
}

const HEADER = 'name,city,note\n';

describe('scanClean', () => {
  it('vouches for CSV the reader takes whole: quoted cells with commas, doubled quotes and line ends; CRLF; blank lines', async () => {
    const text = `${HEADER}a,Boston,plain\r\n"b, c","Bos""ton","two\nlines"\n\n"",,""""\n`;
    expect(await verdicts(text, 'csv')).toEqual({ clean: true, readable: true });
  });

  it('vouches for text in another encoding that decodes, and for UTF-8 accents', async () => {
    expect(await verdicts(Buffer.from(`${HEADER}Ch\xe2teau,Paris,\x80\n`, 'latin1'), 'csv', 'windows-1252')).toEqual({
      clean: true,
      readable: true,
    });
    expect(await verdicts(`${HEADER}Château,Paris,€\n`, 'csv')).toEqual({ clean: true, readable: true });
  });

  it.each([
    ['bytes that are not UTF-8', Buffer.from(`${HEADER}Ch\xe2teau,Paris,x\n`, 'latin1'), 'utf-8'],
    ['a NUL byte', `${HEADER}a,Bos\0ton,x\n`, 'utf-8'],
    ['a UTF-8 byte-order mark read as windows-1252', `\uFEFF${HEADER}a,b,c\n`, 'windows-1252'],
    ['a quote inside a cell not quoted', `${HEADER}a,Bos"ton,x\n`, 'utf-8'],
    ['a closing quote not ending its cell', `${HEADER}"a"b,c,d\n`, 'utf-8'],
    ['a quote never closed', `${HEADER}"a,b,c\n`, 'utf-8'],
    ['a record of a thousand bytes', `${HEADER}${'x'.repeat(1000)},b,c\n`, 'utf-8'],
    ['a record over a thousand cells', `${HEADER}${','.repeat(1001)}\n`, 'utf-8'],
  ] as const)('sends CSV with %s to be read through', async (_what, bytes, encoding) => {
    expect((await verdicts(bytes, 'csv', encoding)).clean).toBe(false);
  });

  it('vouches for NDJSON lines, and not for a long line, a NUL or bytes that are not text', async () => {
    expect(await verdicts('{"a":1}\n\n{"a":"é"}\r\nnot json\n', 'ndjson')).toEqual({ clean: true, readable: true });
    expect((await verdicts(`{"a":"${'x'.repeat(1000)}"}\n`, 'ndjson')).clean).toBe(false);
    expect((await verdicts('{"a":"\0"}\n', 'ndjson')).clean).toBe(false);
    expect((await verdicts(Buffer.from('{"a":"\xe9"}\n', 'latin1'), 'ndjson')).clean).toBe(false);
  });

  it('checks UTF-8 across chunks: a character cut by the end of a chunk is text, a file ending mid-character is not', async () => {
    // The scan reads 256 KiB chunks: "é" (two bytes) straddles the first chunk's end.
    const head = `${HEADER}${'a,b,c\n'.repeat(Math.floor((256 * 1024 - HEADER.length) / 6) - 1)}`;
    const pad = 'x'.repeat(256 * 1024 - 2 - Buffer.byteLength(head));
    const cut = `${head}${pad},é,c\n`;
    expect(
      Buffer.from(cut)
        .subarray(256 * 1024 - 1, 256 * 1024 + 1)
        .toString(),
    ).toBe('é');
    expect(await verdicts(cut, 'csv')).toEqual({ clean: true, readable: true });
    expect((await verdicts(Buffer.from(`${HEADER}a,b,\xe2\x82`, 'latin1'), 'csv')).clean).toBe(false);
  });

  it('says which clean CSV holds no quote at all (split without the parser), and never calls NDJSON so', async () => {
    const scan = (text: string, format: InputFormat) => {
      const path = join(dir, `input-${files++}.${format}`);
      writeFileSync(path, text);
      return scanClean(path, format, 'utf-8');
    };
    expect(await scan(`${HEADER}a,Boston,plain\r\nb,,\n`, 'csv')).toBe('unquoted');
    expect(await scan(`${HEADER}a,"Boston",plain\n`, 'csv')).toBe('clean');
    expect(await scan('{"a":1}\n', 'ndjson')).toBe('clean');
  });

  it('never vouches for a JSON array (read whole by the reader)', async () => {
    expect((await verdicts('[{"a":1}]', 'json')).clean).toBe(false);
  });

  it('finds each quote and line end after many lines without one: a late stray quote, CR or long record still counts', async () => {
    // Thousands of plain LF rows first: the next quote and CR are far ahead of every line end.
    const plain = Array.from({ length: 5_000 }, (_, n) => `a${n},Boston,x\n`).join('');
    expect(await verdicts(`${HEADER}${plain}"b, c",Bos,y\r\nd,e,f\r\n`, 'csv')).toEqual({ clean: true, readable: true });
    expect((await verdicts(`${HEADER}${plain}b,Bos"ton,y\r\n`, 'csv')).clean).toBe(false);
    expect((await verdicts(`${HEADER}${plain}\r${'z'.repeat(1000)},b,c\n`, 'csv')).clean).toBe(false);
  });

  it('carries quotes and record lengths across chunks: a file of many quoted rows is clean, one long record at its end is not', async () => {
    const rows = Array.from({ length: 20_000 }, (_, n) => `"row ${n}, ""quoted""","line\nbreak",${n}\n`).join('');
    expect(await verdicts(`${HEADER}${rows}`, 'csv')).toEqual({ clean: true, readable: true });
    expect((await verdicts(`${HEADER}${rows}"${'y'.repeat(1000)}",b,c\n`, 'csv')).clean).toBe(false);
  });
});
