// import's flags made from the model: --client (a parent link) and --property-match (a field that
// refers to props) are refused on a family without them, naming the families that have them.
import { describe, expect, it } from 'vitest';
import { importFlags, rowOutputs } from '../../../../src/commands/import/import-flags.js';
import { RESOURCES } from '../../../../src/core/resources.js';

const NO_FILES = { results: undefined, failed: undefined };

describe('import flags from the model', () => {
  it('names the families that take --client and --property-match', async () => {
    await expect(importFlags(RESOURCES.props, '-', { format: 'csv', client: 'x' }, '/', NO_FILES)).rejects.toThrow(
      '--client applies to contacts only',
    );
    await expect(importFlags(RESOURCES.clients, '-', { format: 'csv', propertyMatch: 'parcelNumber' }, '/', NO_FILES)).rejects.toThrow(
      '--property-match applies to assignments only',
    );
    const flags = await importFlags(RESOURCES.assignments, '-', { format: 'csv', propertyMatch: 'parcelNumber' }, '/', NO_FILES);
    expect(flags.propertyMatch).toEqual(['parcelNumber']);
  });

  it('names the rows sink its files: as typed, else beside the input; none for stdin or a dry run', () => {
    expect(rowOutputs('in/data.ndjson', {})).toEqual({ results: 'in/data.results.csv', failed: 'in/data.failed.ndjson' });
    expect(rowOutputs('data.csv', { results: 'r.csv' })).toEqual({ results: 'r.csv', failed: 'data.failed.csv' });
    expect(rowOutputs('data.csv', { dryRun: true })).toEqual({ results: undefined, failed: undefined });
    expect(rowOutputs('-', { format: 'csv', failed: 'f.csv' })).toEqual({ results: undefined, failed: 'f.csv' });
    // A name that tells no format: importFlags refuses it before anything is written.
    expect(rowOutputs('data.txt', {})).toEqual({ results: 'data.txt.results.csv', failed: undefined });
  });
});
