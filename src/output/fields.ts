// Dotted field paths (`address.city`, `photos.0.url`) as the formats use them: the paths themselves,
// read and projected, are core/field-paths.ts's (the plan compiles --fields' projection once); here a
// record flattened into key/value rows (a table's one record) and one cell's text.

import { isPlainObject } from '../core/field-paths.js';

export {
  fieldSelection,
  getField,
  isPlainObject,
  parseFieldPath,
  pathTrie,
  pickFields,
  type FieldPath,
  type FieldSelection,
  type PathTrie,
  type Projection,
} from '../core/field-paths.js';

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
