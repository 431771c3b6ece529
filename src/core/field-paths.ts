// Dotted field paths (`address.city`, `photos.0.url`): `--fields` parsed into a selection once, when
// the output plan is made, with its projection compiled then (the paths' tree built once, not per
// record); reading one value (a table or csv cell); the tree csv columns and Parquet types follow.
// Only own properties are followed, so a path can never reach Object.prototype.
import { UsageError } from './errors.js';

export type FieldPath = readonly string[];

export interface FieldSelection {
  /** As given, for header rows. */
  names: readonly string[];
  paths: readonly FieldPath[];
  /** A record with only these fields (json, ndjson, Parquet): the paths' tree built once, not per record. */
  project: Projection;
}

export type Projection = (record: Record<string, unknown>) => Record<string, unknown>;

export function parseFieldPath(path: string): FieldPath {
  return path.split('.');
}

/** `--fields id,address.city` as names and paths; UsageError for a path with an empty step. */
export function fieldSelection(names: readonly string[]): FieldSelection {
  const paths = names.map((name) => {
    const path = parseFieldPath(name);
    if (path.some((key) => key === '')) throw new UsageError(`--fields: "${name}" is not a field path (use names like id,address.city)`);
    return path;
  });
  const trie = pathTrie(paths);
  return { names, paths, project: (record) => (project(record, trie) as Record<string, unknown> | undefined) ?? {} };
}

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
