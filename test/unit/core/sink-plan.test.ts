// The sink rules (core/sink-plan.ts): --split-rows/--split-size read, and which one sink the flags choose or why they are refused.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { planSink, splitLimits, type OutputFlags, type SinkChoice } from '../../../src/core/sink-plan.js';

describe('--split-rows / --split-size', () => {
  it('reads rows, sizes with units, both, or neither', () => {
    expect(splitLimits({})).toBeUndefined();
    expect(splitLimits({ splitRows: '100000' })).toEqual({ rows: 100_000, bytes: undefined });
    expect(splitLimits({ splitSize: '500MiB' })).toEqual({ rows: undefined, bytes: 500 * 1024 ** 2 });
    expect(splitLimits({ splitRows: '10', splitSize: '64K' })).toEqual({ rows: 10, bytes: 65_536 });
  });

  it.each([
    [{ splitRows: '0' }, '--split-rows must be a whole number of records, at least 1; got "0"'],
    [{ splitRows: '-3' }, '--split-rows must be a whole number of records, at least 1; got "-3"'],
    [{ splitRows: '1.5' }, '--split-rows must be a whole number of records, at least 1; got "1.5"'],
    [{ splitRows: '1e3' }, '--split-rows must be a whole number of records, at least 1; got "1e3"'],
    [{ splitSize: '12XB' }, '--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "12XB"'],
    [{ splitSize: '0' }, '--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got "0"'],
    [{ splitSize: '' }, '--split-size must be a size such as 500MiB, 2GB, 64K or a number of bytes; got ""'],
  ])('refuses %j with one line (exit 2)', (flags, message) => {
    let error: unknown;
    try {
      splitLimits(flags);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
  });
});

describe('the one sink, chosen from the flags', () => {
  const out = { given: 'x.csv', path: '/srv/ops/x.csv' };
  const choose = (flags: OutputFlags | undefined, extra: Partial<SinkChoice> = {}) =>
    planSink({ out, format: 'csv', flags, page: undefined, cwd: '/srv/ops', ...extra });

  it('a verb without the list output flags writes --out atomically, else stdout', () => {
    expect(choose(undefined)).toEqual({ kind: 'file', ...out });
    expect(choose(undefined, { out: undefined })).toEqual({ kind: 'stdout' });
  });

  it('a verb that declares --wide alone (sql) writes --out atomically, else stdout, as one with none', () => {
    expect(choose({ wide: true, wholeFile: true })).toEqual({ kind: 'file', ...out });
    expect(choose({ wide: undefined, wholeFile: true }, { out: undefined })).toEqual({ kind: 'stdout' });
  });

  it('an import: its rows sink, the files resolved from where it runs (either may be absent)', () => {
    expect(choose({ rows: { results: 'in.results.csv', failed: undefined } }, { out: undefined })).toEqual({
      kind: 'rows',
      results: { given: 'in.results.csv', path: '/srv/ops/in.results.csv' },
      failed: undefined,
    });
  });

  it('a list: a resumable file export, parts with --split-*, one atomic file for a table or one --page', () => {
    expect(choose({})).toEqual({ kind: 'resumable', ...out, mode: 'auto' });
    expect(choose({ resume: true })).toEqual({ kind: 'resumable', ...out, mode: 'resume' });
    expect(choose({ splitRows: '10' })).toEqual({ kind: 'parts', ...out, split: { rows: 10, bytes: undefined } });
    expect(choose({}, { format: 'table' })).toEqual({ kind: 'file', ...out });
    expect(choose({}, { page: 2 })).toEqual({ kind: 'file', ...out });
    expect(choose({}, { out: undefined })).toEqual({ kind: 'stdout' });
  });

  it.each([
    [{ resume: true, restart: true }, {}, '--resume and --restart cannot be used together'],
    [{ splitRows: '10', resume: true }, {}, '--split-rows cannot be combined with --resume: a split export is not resumable'],
    [{ splitSize: '1K' }, { out: undefined }, '--split-size needs --out PATH: the parts are written beside it (PATH-0001.ext, …)'],
    [{ splitRows: '10' }, { format: 'table' as const }, '--split-rows needs -o json, ndjson or csv: a table is not split into files'],
    [{ restart: true }, { out: undefined }, '--restart needs --out PATH: only an export to a file can be resumed'],
    [{ resume: true }, { page: 2 }, '--resume cannot be combined with --page: one page is not resumed'],
    [{ resume: true }, { format: 'table' as const }, '--resume needs -o json, ndjson or csv: a table is not resumable'],
  ])('refuses %j with one usage error, kept until a writer asks', (flags, extra, message) => {
    const refused = choose(flags, extra);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toBe(message);
  });
});
