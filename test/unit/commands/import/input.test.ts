// The input reader alone: a read that fails part-way is a usage error naming the input and the row
// it got to, for CSV and NDJSON alike, never a raw stream error or a parser left waiting.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openInput, type InputFormat } from '../../../../src/commands/import/input.js';
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
