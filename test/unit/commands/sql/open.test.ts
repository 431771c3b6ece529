import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import { openForQuery } from '../../../../src/commands/sql/open.js';
import { tempDir } from '../../../helpers/temp.js';

describe('appraisal sql on a file that is not there', () => {
  /** The refusal of opening `shown` (not made) with `schema`. */
  const refusal = async (shown: string, schema: string | undefined) => {
    const error = (await openForQuery(join(tempDir('appraisal-sql-open-'), 'none.duckdb'), shown, schema).catch(
      (failure: unknown) => failure,
    )) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    return error;
  };

  it('names the sync that makes it: the same file and the same --schema', async () => {
    const error = await refusal('ops.duckdb', 'acme');
    expect(error.message).toBe('no database at ops.duckdb');
    expect(error.hint).toBe('appraisal sync makes it (appraisal sync --to duckdb:ops.duckdb --schema acme); sql reads it');
    expect((await refusal('ops.duckdb', undefined)).hint).toBe(
      'appraisal sync makes it (appraisal sync --to duckdb:ops.duckdb); sql reads it',
    );
    expect((await refusal('my ops.duckdb', 'Acme')).hint).toContain("(appraisal sync --to 'duckdb:my ops.duckdb' --schema Acme)");
  });
});
