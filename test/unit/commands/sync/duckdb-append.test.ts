// DuckDB's append (new rows through its appender) must write what insert (CAST in SQL) writes: the
// same instants for times in UTC and with an offset (which the appender's own cast would drop, so
// such a batch goes through insert), integers beyond 2^53 exact, JSON as given, a column sync does
// not write left null, and nothing kept of a batch whose transaction fails.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../src/commands/sync/database.js';
import { openDuckDB } from '../../../../src/commands/sync/duckdb.js';
import { tempDir } from '../../../helpers/temp.js';

const COLUMNS = [
  { name: 'id', type: 'text' as const },
  { name: 'n', type: 'bigint' as const },
  { name: 'seen_at', type: 'timestamptz' as const },
  { name: 'doc', type: 'json' as const },
];

describe('DuckDB append', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDuckDB(join(tempDir('duckdb-append'), 'a.duckdb'), 'a.duckdb', { readOnly: false });
    // `old` stands for a column the description no longer has: between the ones sync writes.
    await db.run('CREATE TABLE t (id VARCHAR PRIMARY KEY, old VARCHAR, n BIGINT, seen_at TIMESTAMP WITH TIME ZONE, doc JSON)');
  });
  afterAll(() => db.close());

  /** The row `id`, and whether its time is the instant CAST makes of `time`. */
  const written = (time: string, id: string) =>
    db.query(
      'SELECT id, CAST(n AS VARCHAR) AS n, epoch_us(seen_at) = epoch_us(CAST($1 AS TIMESTAMP WITH TIME ZONE)) AS same, old, CAST(doc AS VARCHAR) AS doc FROM t WHERE id = $2',
      [time, id],
    );

  it('writes the same values as a CAST, for times in UTC and with an offset', async () => {
    const utc = '2024-05-06T07:08:09.123456Z';
    const offset = '2024-05-06T07:08:09.5+02:00';
    await db.transaction(() => db.append('main', 't', COLUMNS, [['a', '9007199254740993', utc, '{"k":[1,2]}']]));
    await db.transaction(() => db.append('main', 't', COLUMNS, [['b', null, offset, null]]));
    expect(await written(utc, 'a')).toEqual([{ id: 'a', n: '9007199254740993', same: true, old: null, doc: '{"k":[1,2]}' }]);
    expect(await written(offset, 'b')).toEqual([{ id: 'b', n: null, same: true, old: null, doc: null }]);
  });

  it('keeps nothing of a batch whose transaction fails', async () => {
    await expect(
      db.transaction(async () => {
        await db.append('main', 't', COLUMNS, [['c', '1', null, null]]);
        throw new Error('the batch failed');
      }),
    ).rejects.toThrow('the batch failed');
    expect(await db.query(`SELECT count(*)::INT AS n FROM t WHERE id = 'c'`)).toEqual([{ n: 0 }]);
  });
});
