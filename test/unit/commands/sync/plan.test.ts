import { describe, expect, it } from 'vitest';
import { ContractError, UsageError } from '../../../../src/core/errors.js';
import { batchRows, BATCH_ROWS } from '../../../../src/commands/sync/family-sync.js';
import type { Context } from '../../../../src/core/context.js';
import { parseFamilies, planSync } from '../../../../src/commands/sync/plan.js';
import { cell } from '../../../../src/commands/sync/rows.js';
import { familyTables } from '../../../../src/commands/sync/tables.js';
import { holdsPassword, parseTarget, postgresHost } from '../../../../src/commands/sync/target.js';

describe('sync targets', () => {
  it('defaults to duckdb:appraisal.duckdb in the working directory', () => {
    expect(parseTarget(undefined, '/srv/ops', {})).toEqual({
      kind: 'duckdb',
      path: '/srv/ops/appraisal.duckdb',
      shown: 'appraisal.duckdb',
    });
    expect(parseTarget('duckdb:/abs/x.duckdb', '/w', {})).toMatchObject({ path: '/abs/x.duckdb' });
    // The shell leaves `~` inside --to alone: it is the home directory, as in DuckDB's own paths.
    expect(parseTarget('duckdb:~/ops/x.duckdb', '/w', { HOME: '/home/ann' })).toEqual({
      kind: 'duckdb',
      path: '/home/ann/ops/x.duckdb',
      shown: '~/ops/x.duckdb',
    });
    expect(parseTarget('duckdb:~user/x.duckdb', '/w', { HOME: '/home/ann' })).toMatchObject({ path: '/w/~user/x.duckdb' });
  });

  it('reads postgres:// and postgresql:// URLs, showing only the host and port', () => {
    const target = parseTarget('postgresql://u:secret@db.example:6543/ops', '/w', {});
    expect(target).toMatchObject({ kind: 'postgres', shown: 'postgres at db.example:6543' });
    expect(postgresHost('postgres:///ops', { PGHOST: 'pg.internal', PGPORT: '5433' })).toBe('pg.internal:5433');
    expect(postgresHost('postgres://u@h/ops', {})).toBe('h:5432');
  });

  it('tells a URL that holds its password (user:password@ or password=) from one that does not', () => {
    expect(holdsPassword('postgresql://u:secret@db.example:6543/ops')).toBe(true);
    expect(holdsPassword('postgres://u:@h/ops')).toBe(true);
    expect(holdsPassword('postgres://h/ops?user=u&password=secret')).toBe(true);
    expect(holdsPassword('postgres://u:p%40ss@h/ops?sslmode=require')).toBe(true);
    expect(holdsPassword('postgres://u@h:5432/ops')).toBe(false);
    expect(holdsPassword('postgres://[::1]:5432/ops?sslmode=require')).toBe(false);
    expect(holdsPassword('postgres:///ops?host=/var/run/postgresql')).toBe(false);
    expect(holdsPassword('postgres://')).toBe(false);
    expect(parseTarget('postgres://u@h/ops', '/w', {})).toMatchObject({ passwordInUrl: false });
    expect(parseTarget('postgres://u:x@h/ops', '/w', {})).toMatchObject({ passwordInUrl: true });
  });

  it('refuses other schemes and an in-memory DuckDB, never echoing a password', () => {
    const refusal = (raw: string) => {
      try {
        parseTarget(raw, '/w', {});
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return `${(error as UsageError).message} ${(error as UsageError).hint ?? ''}`;
      }
      throw new Error(`${raw} was accepted`);
    };
    expect(refusal('mysql://root:hunter2@db/x')).toMatch(/"mysql:" is not supported.*duckdb:PATH, postgres:\/\/… or postgresql:\/\/…/);
    expect(refusal('mysql://root:hunter2@db/x')).not.toContain('hunter2');
    expect(refusal('duckdb::memory:')).toMatch(/in-memory/);
    expect(refusal('appraisal.duckdb')).toBe(
      '--to appraisal.duckdb: a target starts with its kind (duckdb: or postgres://) for a DuckDB file: --to duckdb:appraisal.duckdb',
    );
  });
});

describe('--schema against the DuckDB file', () => {
  /** The hint of planSync's refusal of these flags (what a context it reads holds, no more). */
  const ctx = {
    output: { formatExplicit: false, format: 'table' },
    cwd: '/w',
    env: {},
    io: { warn: () => undefined },
  } as unknown as Context;
  const hintOf = (flags: { to: string; schema: string }): string | undefined => {
    try {
      planSync(ctx, [], flags);
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as UsageError).hint;
    }
    throw new Error('accepted');
  };

  it("refuses the name DuckDB gives the file's database, suggesting another name made from the file's, not the schema's", () => {
    expect(hintOf({ to: 'duckdb:ops.duckdb', schema: 'OPS' })).toBe(
      'choose another --schema, or another name for the file (--to duckdb:ops-sync.duckdb)',
    );
    // The name suggested is one DuckDB tells apart from the schema.
    expect(planSync(ctx, [], { to: 'duckdb:ops-sync.duckdb', schema: 'OPS' }).schema).toBe('OPS');
    expect(hintOf({ to: 'duckdb:data/.acme.db', schema: 'acme' })).toMatch(/\(--to duckdb:data\/\.acme-sync\.db\)$/);
    expect(hintOf({ to: 'duckdb:/srv/my ops/ops.v2.duckdb', schema: 'ops' })).toMatch(
      /\(--to 'duckdb:\/srv\/my ops\/ops-sync\.v2\.duckdb'\)$/,
    );
  });
});

describe('sync families', () => {
  it('all five by default, in order, each once; aliases accepted; others refused', () => {
    expect(parseFamilies([]).map((family) => family.name)).toEqual(['props', 'assignments', 'clients', 'contacts', 'files']);
    expect(parseFamilies(['files', 'properties', 'props']).map((family) => family.name)).toEqual(['props', 'files']);
    expect(() => parseFamilies(['designations'])).toThrow(UsageError);
    expect(() => parseFamilies(['nope'])).toThrow(/no family "nope"/);
  });
});

describe('cells and batches', () => {
  it('sends every value as text the database casts, JSON for json columns', () => {
    expect(cell('bigint', 9007199254740991)).toBe('9007199254740991');
    expect(cell('double', 0.1)).toBe('0.1');
    expect(cell('boolean', false)).toBe('false');
    expect(cell('timestamptz', '2026-01-01T00:00:00.123456Z')).toBe('2026-01-01T00:00:00.123456Z');
    expect(cell('json', 'text')).toBe('"text"');
    expect(cell('json', { a: [1] })).toBe('{"a":[1]}');
    expect(cell('text', null)).toBeNull();
    expect(cell('text', undefined)).toBeNull();
  });

  it('batches of 1,000 rows unless APPRAISAL_SYNC_BATCH_ROWS asks for fewer', () => {
    expect(batchRows({})).toBe(BATCH_ROWS);
    expect(BATCH_ROWS).toBe(1000);
    expect(batchRows({ APPRAISAL_SYNC_BATCH_ROWS: '40' })).toBe(40);
    expect(batchRows({ APPRAISAL_SYNC_BATCH_ROWS: '5000' })).toBe(BATCH_ROWS);
    expect(batchRows({ APPRAISAL_SYNC_BATCH_ROWS: 'x' })).toBe(BATCH_ROWS);
  });

  it('family tables: bookkeeping columns on the family table, (parent_id, position) keys on child tables', () => {
    const { main, children } = familyTables({
      name: 'files',
      columns: [{ name: 'id', path: ['id'], type: 'text', required: true }],
      children: [{ name: 'files__tags', path: ['tags'], element: { kind: 'scalar', type: 'text' } }],
    });
    expect(main).toEqual({
      name: 'files',
      columns: [
        { name: 'id', type: 'text' },
        { name: '_unpublished', type: 'json' },
        { name: '_synced_at', type: 'timestamptz' },
        { name: '_deleted_at', type: 'timestamptz' },
      ],
      key: ['id'],
    });
    expect(children).toEqual([
      {
        name: 'files__tags',
        columns: [
          { name: 'parent_id', type: 'text' },
          { name: 'position', type: 'bigint' },
          { name: 'value', type: 'text' },
        ],
        key: ['parent_id', 'position'],
      },
    ]);
  });

  it('two published fields with one snake_case name are refused by name (exit 9), not by the database', () => {
    const id = { name: 'id', path: ['id'], type: 'text' as const, required: true };
    const twice = () =>
      familyTables({
        name: 'properties',
        columns: [
          id,
          { name: 'parcel_number', path: ['parcelNumber'], type: 'text', required: false },
          { name: 'parcel_number', path: ['parcel_number'], type: 'text', required: false },
        ],
        children: [],
      });
    expect(twice).toThrow(ContractError);
    expect(twice).toThrow(
      'the published schema gives parcelNumber and parcel_number the same column, properties.parcel_number: nothing was written for properties',
    );
    const bookkeeping = () =>
      familyTables({
        name: 'files',
        columns: [id, { name: '_synced_at', path: ['_syncedAt'], type: 'text', required: false }],
        children: [],
      });
    expect(bookkeeping).toThrow("the published schema gives _syncedAt and sync's own _synced_at the same column, files._synced_at");
    const element = () =>
      familyTables({
        name: 'files',
        columns: [id],
        children: [
          {
            name: 'files__attachments',
            path: ['attachments'],
            element: { kind: 'object', columns: [{ name: 'position', path: ['position'], type: 'bigint', required: false }] },
          },
        ],
      });
    expect(element).toThrow("the published schema gives position and sync's own position the same column, files__attachments.position");
  });
});
