// The rows sink of an import (output/row-sink.ts): rows pushed as they finish go to --results and,
// those to fix, to --failed in the input's own form; each file appears only when the run finishes,
// --failed only when some row went to it, and a discarded run leaves nothing beside them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/core/context.js';
import type { SinkPlan } from '../../../src/core/output-plan.js';
import { openRowSink } from '../../../src/output/index.js';
import { entriesOf, tempDir } from '../../helpers/temp.js';

function rowsContext(dir: string, names: { results?: string; failed?: string }): Context {
  const file = (name: string | undefined) => (name === undefined ? undefined : { given: name, path: join(dir, name) });
  const sink: SinkPlan = { kind: 'rows', results: file(names.results), failed: file(names.failed) };
  return { output: { sink } } as unknown as Context;
}

describe('the rows sink', () => {
  it('writes every row to the results and the rows to fix in the input form, placed when finished', async () => {
    const dir = tempDir('row-sink');
    const sink = await openRowSink(rowsContext(dir, { results: 'r.csv', failed: 'f.json' }), {
      columns: ['name', '_row', '_status'],
      bom: true,
      failed: { form: 'json', header: undefined },
    });
    await sink.push({ results: ['a', 1, 'created'] });
    await sink.push({ results: ['b, c', 2, 'invalid'], toFix: { value: { name: 'b, c' } } });
    await sink.push({ results: ['d', 3, 'failed'], toFix: { value: { name: 'd' } } });
    expect(entriesOf(dir).filter((name) => !name.startsWith('.'))).toEqual([]);
    await sink.finish();
    expect(readFileSync(join(dir, 'r.csv'), 'utf8')).toBe('\uFEFFname,_row,_status\r\na,1,created\r\n"b, c",2,invalid\r\nd,3,failed\r\n');
    expect(readFileSync(join(dir, 'f.json'), 'utf8')).toBe('\uFEFF[\n{"name":"b, c"},\n{"name":"d"}\n]\n');
    expect(entriesOf(dir).sort()).toEqual(['f.json', 'r.csv']);
  });

  it('places no --failed when no row is to fix, and a discarded run leaves no file', async () => {
    const dir = tempDir('row-sink');
    const shape = { columns: ['_row'], bom: false, failed: { form: 'csv' as const, header: ['name'] } };
    const clean = await openRowSink(rowsContext(dir, { results: 'r.csv', failed: 'f.csv' }), shape);
    await clean.push({ results: [1] });
    await clean.finish();
    expect(entriesOf(dir)).toEqual(['r.csv']);

    const other = tempDir('row-sink');
    const discarded = await openRowSink(rowsContext(other, { results: 'r.csv', failed: 'f.ndjson' }), {
      ...shape,
      failed: { form: 'ndjson', header: undefined },
    });
    await discarded.push({ results: [1], toFix: { line: '{"name":"x"}' } });
    await discarded.discard();
    expect(entriesOf(other)).toEqual([]);
  });
});
