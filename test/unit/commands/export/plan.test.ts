// export's flags: every bad combination is one usage error (exit 2) before any request or file.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { DEFAULT_FAMILIES, parseFamilies, planExport, type ExportFlags } from '../../../../src/commands/export/plan.js';
import { fakeContext } from '../../../helpers/fake-context.js';

const plan = (flags: ExportFlags, output?: 'table' | 'csv') =>
  planExport(fakeContext({ cwd: '/data', globals: output ? { output } : {} }).ctx, flags);

describe('export flags', () => {
  it('defaults: the five families in table order, NDJSON, no incremental start, 5m overlap', () => {
    const result = plan({ dir: 'snap' });
    expect(result.families.map((family) => family.name)).toEqual([...DEFAULT_FAMILIES]);
    expect(result).toMatchObject({
      dir: '/data/snap',
      format: 'ndjson',
      mode: 'auto',
      replace: false,
      since: undefined,
      overlapMs: 300_000,
      split: undefined,
    });
  });

  it('--families in any order and with aliases, each once, in table order', () => {
    expect(parseFamilies('files, properties,props,designations').map((family) => family.name)).toEqual(['props', 'files', 'designations']);
  });

  it('incremental starts: --since-last resolves against cwd, --since is checked, --overlap is a duration', () => {
    expect(plan({ dir: 'b', sinceLast: 'a', overlap: '90s' })).toMatchObject({
      since: { kind: 'since-last', dir: '/data/a', given: 'a' },
      overlapMs: 90_000,
    });
    expect(plan({ dir: 'b', since: '2026-11-01T00:00:00Z', overlap: '0' })).toMatchObject({
      since: { kind: 'since', at: '2026-11-01T00:00:00Z' },
      overlapMs: 0,
    });
  });

  it.each<[string, ExportFlags, 'table' | undefined, RegExp]>([
    ['no --dir', {}, undefined, /export needs --dir DIR/],
    ['an unknown family', { dir: 'd', families: 'props,keys' }, undefined, /--families: no family "keys"; choose from props, assignments/],
    ['no family', { dir: 'd', families: ' , ' }, undefined, /--families needs at least one/],
    ['-o table', { dir: 'd' }, 'table', /-o table is not one of them/],
    ['--resume with --restart', { dir: 'd', resume: true, restart: true }, undefined, /cannot be used together/],
    ['--since-last with --since', { dir: 'd', sinceLast: 'p', since: '2026-01-01' }, undefined, /alternatives/],
    ['--overlap alone', { dir: 'd', overlap: '1m' }, undefined, /--overlap applies to an incremental run/],
    ['a bad --since', { dir: 'd', since: 'yesterday' }, undefined, /--since must be an ISO 8601 date/],
    ['a bad --overlap', { dir: 'd', since: '2026-01-01', overlap: 'soon' }, undefined, /--overlap must be a duration/],
    ['--since-last naming --dir', { dir: 'd', sinceLast: './d' }, undefined, /--since-last names --dir itself/],
    ['a bad --split-rows', { dir: 'd', splitRows: '0' }, undefined, /--split-rows must be a whole number/],
  ])('%s is a usage error', (_name, flags, output, message) => {
    let caught: unknown;
    try {
      plan(flags, output);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toMatch(message);
  });
});
