// import's flags made from the model: --client (a parent link) and --property-match (a field that
// refers to props) are refused on a family without them, naming the families that have them.
import { describe, expect, it } from 'vitest';
import { importFlags } from '../../../../src/commands/import/import-flags.js';
import { RESOURCES } from '../../../../src/core/resources.js';

describe('import flags from the model', () => {
  it('names the families that take --client and --property-match', async () => {
    await expect(importFlags(RESOURCES.props, '-', { format: 'csv', client: 'x' }, '/')).rejects.toThrow(
      '--client applies to contacts only',
    );
    await expect(importFlags(RESOURCES.clients, '-', { format: 'csv', propertyMatch: 'parcelNumber' }, '/')).rejects.toThrow(
      '--property-match applies to assignments only',
    );
    const flags = await importFlags(RESOURCES.assignments, '-', { format: 'csv', propertyMatch: 'parcelNumber' }, '/');
    expect(flags.propertyMatch).toEqual(['parcelNumber']);
  });
});
