// One batch of records into the family's tables: each record's cells from the table shape (every
// value as text, cast by the column's type in the SQL, so an integer beyond 2^53 or a timestamp's
// microseconds arrive exactly as the service sent them), the family row upserted on `id` (columns
// the description no longer has keep their values), the child rows of each written record replaced
// as a whole. What no column holds (a field the description does not publish, at any depth) goes to
// `_unpublished` as JSON, so a record is never written with less than the service sent. Which
// records are new, changed or unchanged is read from the table first: unchanged (same updated_at,
// not marked gone) records are not written again.
import type { ApiRecord } from '../../core/api-client.js';
import {
  heldFields,
  UNPUBLISHED,
  unpublishedOf,
  valueAt,
  type ColumnType,
  type HeldFields,
  type TableShape,
} from '../../core/table-shape/shape.js';
import { qualified, quote, type Database, type Param } from './database.js';
import { DELETED_AT, SYNCED_AT } from './tables.js';

/**
 * A date-time as both databases read it alike: digits past the microsecond, which neither holds, cut
 * as DuckDB cuts them (PostgreSQL rounds: 23:59:59.9999999Z on 31 December became the next year), and
 * RFC 3339's lower-case `t` and `z`, which DuckDB refuses, as capitals.
 */
const dateTimeText = (text: string): string =>
  text
    .replace(/(\.\d{6})\d+/, '$1')
    .replace(/^(\d{4}-\d{2}-\d{2})t/, '$1T')
    .replace(/z$/, 'Z');

/** A value as the text the database casts to the column's type. */
export function cell(type: ColumnType, value: unknown): Param {
  if (value === null || value === undefined) return null;
  if (type === 'json') return JSON.stringify(value);
  if (typeof value === 'string') return type === 'timestamptz' ? dateTimeText(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** The `_unpublished` cell of a record or an array's object element. */
const unpublishedCell = (value: unknown, held: HeldFields): Param => cell('json', unpublishedOf(value, held));

/**
 * A subquery of the ids given as one JSON parameter `param` (an array of one-element arrays, the
 * shape classify sends too): one parameter whatever the count, where a list of `$n` per id is slow
 * in DuckDB and has to be cut into pieces.
 */
function idsOf(db: Database, param: string): string {
  return `(SELECT r->>0 FROM ${db.dialect.jsonElements(param)})`;
}

const idsParam = (ids: readonly string[]): string => JSON.stringify(ids.map((id) => [id]));

export interface Classified {
  /** Records not in the table. */
  fresh: ApiRecord[];
  /** Records in it with another updated_at, or marked gone (a record that came back). */
  changed: ApiRecord[];
  unchanged: number;
}

/** Sort a batch by what the table holds (one query; nothing of it when the table is new). */
export async function classify(
  db: Database,
  schema: string,
  shape: TableShape,
  records: readonly ApiRecord[],
  tableExists: boolean,
): Promise<Classified> {
  if (!tableExists || records.length === 0) return { fresh: [...records], changed: [], unchanged: 0 };
  const updated = shape.columns.find((column) => column.name === 'updated_at' && column.type === 'timestamptz');
  // One JSON parameter for the batch (a parameter per value is slow in DuckDB).
  const pairs = records.map((record) => [record.id, updated ? cell('timestamptz', valueAt(record, updated.path)) : null]);
  const same = updated
    ? `(t.updated_at IS NOT DISTINCT FROM CAST(v.u AS ${db.dialect.typeName('timestamptz')}) AND t.${quote(DELETED_AT)} IS NULL)`
    : 'false';
  const rows = await db.query(
    `SELECT t.id AS id, ${same} AS same FROM ${qualified(schema, shape.name)} t JOIN (SELECT r->>0 AS id, r->>1 AS u FROM ${db.dialect.jsonElements('$1')}) v ON t.id = v.id`,
    [JSON.stringify(pairs)],
  );
  const known = new Map(rows.map((row) => [String(row.id), row.same === true]));
  const result: Classified = { fresh: [], changed: [], unchanged: 0 };
  for (const record of records) {
    const same = known.get(record.id);
    if (same === undefined) result.fresh.push(record);
    else if (same) result.unchanged++;
    else result.changed.push(record);
  }
  return result;
}

/**
 * Write these records (new and changed) and their child rows; the caller holds the transaction.
 * `freshChildren`: the child tables created by this run, which hold no rows but this pass's (each
 * record is read once per pass), so there is nothing of theirs to replace.
 */
export async function writeRecords(
  db: Database,
  schema: string,
  shape: TableShape,
  { fresh, changed }: Pick<Classified, 'fresh' | 'changed'>,
  syncedAt: string,
  freshChildren: ReadonlySet<string> = new Set(),
): Promise<void> {
  const records = [...fresh, ...changed];
  if (records.length === 0) return;
  const table = qualified(schema, shape.name);
  const columns = [
    ...shape.columns,
    { name: UNPUBLISHED, type: 'json' as const, path: [] },
    { name: SYNCED_AT, type: 'timestamptz' as const, path: [] },
    { name: DELETED_AT, type: 'timestamptz' as const, path: [] },
  ];
  const held = heldFields([...shape.columns, ...shape.children].map((column) => column.path));
  const rowsOf = (some: readonly ApiRecord[]) =>
    some.map((record) => [
      ...shape.columns.map((column) => cell(column.type, valueAt(record, column.path))),
      unpublishedCell(record, held),
      syncedAt,
      null,
    ]);
  // New records cannot conflict; changed ones are upserted on id.
  if (fresh.length > 0) await db.append(schema, shape.name, columns, rowsOf(fresh));
  if (changed.length > 0) {
    const updates = columns
      .filter((column) => column.name !== 'id')
      .map((column) => `${quote(column.name)} = EXCLUDED.${quote(column.name)}`);
    await db.insert(table, columns, rowsOf(changed), ` ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`);
  }

  for (const child of shape.children) {
    const childTable = qualified(schema, child.name);
    if (!freshChildren.has(child.name))
      await db.run(`DELETE FROM ${childTable} WHERE parent_id IN ${idsOf(db, '$1')}`, [idsParam(records.map((record) => record.id))]);
    const element = child.element;
    const childColumns: Array<{ name: string; type: ColumnType }> = [
      { name: 'parent_id', type: 'text' },
      { name: 'position', type: 'bigint' },
      ...(element.kind === 'scalar'
        ? [{ name: 'value', type: element.type }]
        : [...element.columns, { name: UNPUBLISHED, type: 'json' as const }]),
    ];
    const elementHeld = heldFields(element.kind === 'object' ? element.columns.map((column) => column.path) : []);
    const childRows: Param[][] = [];
    for (const record of records) {
      const items = valueAt(record, child.path);
      if (!Array.isArray(items)) continue;
      items.forEach((item: unknown, position) => {
        const values =
          element.kind === 'scalar'
            ? [cell(element.type, item)]
            : [...element.columns.map((column) => cell(column.type, valueAt(item, column.path))), unpublishedCell(item, elementHeld)];
        childRows.push([record.id, String(position), ...values]);
      });
    }
    // Their old rows are deleted above: nothing left to conflict with.
    if (childRows.length > 0) await db.append(schema, child.name, childColumns, childRows);
  }
}

/**
 * Up to `limit` ids of the family's live rows (not marked gone) after `after`, in id order: a full
 * pass pages through them to find the records gone from the service, never holding every id.
 */
export async function liveIdsAfter(db: Database, schema: string, table: string, after: string | null, limit: number): Promise<string[]> {
  const live = `SELECT id FROM ${qualified(schema, table)} WHERE ${quote(DELETED_AT)} IS NULL`;
  const page = ` ORDER BY id LIMIT ${Math.floor(limit)}`;
  const rows = after === null ? await db.query(live + page) : await db.query(`${live} AND id > $1${page}`, [after]);
  return rows.map((row) => String(row.id));
}

export async function markGone(db: Database, schema: string, table: string, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db.run(
    `UPDATE ${qualified(schema, table)} SET ${quote(DELETED_AT)} = CAST($1 AS ${db.dialect.typeName('timestamptz')}) WHERE id IN ${idsOf(db, '$2')}`,
    [at, idsParam(ids)],
  );
}

/** The family's rows: live (not marked gone), and all of them. */
export async function countRows(db: Database, schema: string, table: string): Promise<{ live: number; all: number }> {
  const [row] = await db.query(
    `SELECT count(*) FILTER (WHERE ${quote(DELETED_AT)} IS NULL) AS live, count(*) AS total FROM ${qualified(schema, table)}`,
  );
  return { live: Number(row?.live ?? 0), all: Number(row?.total ?? 0) };
}
