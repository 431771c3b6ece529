// Dotted field paths (`address.city`, `photos.0.url`) shared by every format: read one value for a
// table or csv cell, project a record down to some fields for json/ndjson, flatten a record into
// key/value rows. Only own properties are followed, so a path can never reach Object.prototype.

import type { FieldPath, OutputPlan } from '../core/output-plan.js';

export { fieldSelection, parseFieldPath, type FieldPath, type FieldSelection } from '../core/output-plan.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return /^\d+$/.test(key) ? value[Number(key)] : undefined;
  if (isPlainObject(value) && Object.hasOwn(value, key)) return value[key];
  return undefined;
}

/** The value at a dotted path, or undefined when any step is missing. */
export function getField(record: unknown, path: FieldPath): unknown {
  let value = record;
  for (const key of path) {
    if (value === undefined) return undefined;
    value = child(value, key);
  }
  return value;
}

/** Field paths as a tree: what --fields projects (pickFields) and which fields csv columns hold (csv.ts). */
export interface PathTrie {
  /** A path ends here: the whole value at this node is meant (copied, or one cell); deeper paths add nothing. */
  whole: boolean;
  children: Map<string, PathTrie>;
}

export function pathTrie(paths: readonly FieldPath[]): PathTrie {
  const root: PathTrie = { whole: false, children: new Map() };
  for (const path of paths) {
    let node = root;
    for (const key of path) {
      let next = node.children.get(key);
      if (!next) node.children.set(key, (next = { whole: false, children: new Map() }));
      node = next;
    }
    node.whole = true;
  }
  return root;
}

function project(source: unknown, node: PathTrie): unknown {
  const out: Record<string, unknown> | unknown[] = Array.isArray(source) ? [] : {};
  let any = false;
  for (const [key, sub] of node.children) {
    const value = child(source, key);
    if (value === undefined) continue;
    const picked = sub.whole ? value : typeof value === 'object' && value !== null ? project(value, sub) : undefined;
    if (picked === undefined) continue;
    // defineProperty, not assignment: a field named __proto__ stays an ordinary key.
    Object.defineProperty(out, key, { value: picked, enumerable: true, writable: true, configurable: true });
    any = true;
  }
  return any ? out : undefined;
}

/**
 * A copy of the record with only the given paths, nested as in the source:
 * `pickFields(r, [['id'], ['address','city']])` → `{ id, address: { city } }`. Missing paths are left out.
 */
export function pickFields(record: Record<string, unknown>, paths: readonly FieldPath[]): Record<string, unknown> {
  return (project(record, pathTrie(paths)) as Record<string, unknown> | undefined) ?? {};
}

export type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

/** json, ndjson and Parquet: the record, or only its --fields. */
export function projection(plan: OutputPlan): Projection {
  const fields = plan.fields;
  return fields ? (record) => pickFields(record, fields.paths) : (record) => record;
}

/**
 * Key/value rows for one record: nested objects become dotted keys, arrays stay one value (shown as
 * JSON), empty objects stay `{}`.
 */
export function flattenRecord(record: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  const rows: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) rows.push(...flattenRecord(value, name));
    else rows.push([name, value]);
  }
  return rows;
}

/** The text of one cell: empty for null/undefined, nested values as compact JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
