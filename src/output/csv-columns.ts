// Which columns a csv holds: `--fields` when given; else every field, from the list operation's
// published record schema (flattened dotted paths, schema order: known before the first record);
// without a schema, the fields of the first record. An array (or objects inside one) is one cell of
// JSON text. A field a record carries that the columns leave out is never dropped silently: it is
// noted and named in a warning at the end, with the --fields that gets it.
import type { FieldPath, FieldSelection } from '../core/output-plan.js';
import { fieldSelection, isPlainObject, pathTrie, type PathTrie } from './fields.js';

/** A record's fields as paths: nested objects flattened, arrays and empty objects one field each. */
export function recordPaths(record: Record<string, unknown>, prefix: readonly string[] = []): FieldPath[] {
  const paths: FieldPath[] = [];
  for (const [key, value] of Object.entries(record)) {
    const path = [...prefix, key];
    if (isPlainObject(value) && Object.keys(value).length > 0) paths.push(...recordPaths(value, path));
    else paths.push(path);
  }
  return paths;
}

export interface CsvColumns {
  /** The columns, once known (at once with --fields or a schema; else at the first record). */
  known(): FieldSelection | undefined;
  /** The columns for this record: fixes them from it when nothing did yet. */
  forRecord(record: Record<string, unknown>): FieldSelection;
  /** The header of an output with no records at all, when nothing fixed the columns. */
  fallback(): FieldSelection;
  /** Fields records carried that no column holds, in the order first seen. */
  leftOut(): readonly string[];
}

/**
 * `fields`: --fields (exactly those, nothing noted); `published`: the schema's columns; `fallback`:
 * the view's columns, for the header of an empty output without either.
 */
export function csvColumns(
  fields: FieldSelection | undefined,
  published: readonly string[] | undefined,
  fallback: readonly string[],
): CsvColumns {
  let columns: FieldSelection | undefined = fields ?? (published ? fieldSelection(published) : undefined);
  let trie = columns && !fields ? pathTrie(columns.paths) : undefined;
  const left = new Map<string, true>();
  const note = (value: unknown, node: PathTrie, prefix: string): void => {
    if (!isPlainObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const name = prefix === '' ? key : `${prefix}.${key}`;
      const next = node.children.get(key);
      if (next === undefined) {
        if (child !== undefined && !left.has(name)) left.set(name, true);
      } else if (!next.whole) note(child, next, name);
    }
  };
  return {
    known: () => columns,
    forRecord(record) {
      if (!columns) {
        const paths = recordPaths(record);
        columns = { names: paths.map((path) => path.join('.')), paths };
        trie = pathTrie(paths);
      }
      if (trie) note(record, trie, '');
      return columns;
    },
    fallback: () => columns ?? fieldSelection(fallback),
    leftOut: () => [...left.keys()],
  };
}
