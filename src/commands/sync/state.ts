// The state row of one family in `_appraisal_sync`, written in the same transaction as the rows it
// covers, so the database alone says where the next run continues (a fresh machine with an empty
// config directory continues incrementally). The watermark moves only when a pass over the family
// has finished: a run killed half way leaves the previous one, and the next run reads again from
// there (rows already written compare unchanged and are skipped).
import { UsageError } from '../../core/errors.js';
import { qualified, type Database } from './database.js';
import { STATE_TABLE } from './tables.js';

export interface FamilyState {
  origin: string;
  /** Service time (ms) the last finished pass started at; null until one finished. */
  watermark: number | null;
  /** Service time (ms) the last finished full pass started at. */
  lastFullAt: number | null;
  records: number;
}

const msOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Each family's state by its table's name, in one query (a family no run wrote has none; no state
 * table yet counts as none).
 */
export async function readStates(db: Database, schema: string, stateTableExists: boolean): Promise<Map<string, FamilyState>> {
  const states = new Map<string, FamilyState>();
  if (!stateTableExists) return states;
  const ms = db.dialect.epochMs;
  const rows = await db.query(
    `SELECT family, origin, ${ms('watermark')} AS watermark, ${ms('last_full_at')} AS last_full_at, records FROM ${qualified(schema, STATE_TABLE)}`,
  );
  for (const row of rows) {
    states.set(String(row.family), {
      origin: String(row.origin),
      watermark: msOrNull(row.watermark),
      lastFullAt: msOrNull(row.last_full_at),
      records: Number(row.records),
    });
  }
  return states;
}

export async function stateTableExists(db: Database, schema: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 AS found FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2`, [
    schema,
    STATE_TABLE,
  ]);
  return rows.length > 0;
}

/** Refuse a database that holds another service's records under this schema. */
export function checkOrigin(state: FamilyState | undefined, origin: string, where: string, table: string): void {
  if (state && state.origin !== origin) {
    throw new UsageError(`${where} holds ${table} synced from ${state.origin}; this run reads ${origin}`, {
      hint: 'one organization per schema: give another --schema (or another --to) for this one',
    });
  }
}

/**
 * The family's state row, replaced. An UPDATE of the row (there after a family's first batch), and an
 * INSERT only when it changed none: DuckDB took ~10 ms for an `INSERT … ON CONFLICT DO UPDATE` of
 * this one row, an UPDATE ~2 ms, and a run writes the row with every batch. One writer holds the
 * schema (run.ts), so nothing comes between the two.
 */
export async function writeState(
  db: Database,
  schema: string,
  table: string,
  state: FamilyState,
  facts: { cliVersion: string; syncedAt: string },
): Promise<void> {
  const cast = (type: 'timestamptz' | 'bigint' | 'text', at: number) => `CAST($${at} AS ${db.dialect.typeName(type)})`;
  const values = [
    table,
    state.origin,
    isoOrNull(state.watermark),
    isoOrNull(state.lastFullAt),
    String(state.records),
    facts.cliVersion,
    facts.syncedAt,
  ];
  const updated = await db.query(
    `UPDATE ${qualified(schema, STATE_TABLE)} SET origin = $2, watermark = ${cast('timestamptz', 3)}, last_full_at = ${cast('timestamptz', 4)}, ` +
      `records = ${cast('bigint', 5)}, cli_version = $6, synced_at = ${cast('timestamptz', 7)} WHERE family = $1 RETURNING family`,
    values,
  );
  if (updated.length > 0) return;
  await db.run(
    `INSERT INTO ${qualified(schema, STATE_TABLE)} (family, origin, watermark, last_full_at, records, cli_version, synced_at) ` +
      `VALUES ($1, $2, ${cast('timestamptz', 3)}, ${cast('timestamptz', 4)}, ${cast('bigint', 5)}, $6, ${cast('timestamptz', 7)})`,
    values,
  );
}
