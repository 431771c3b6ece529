// One input row → the record to send: columns renamed by --map, CSV cells typed by the request
// schema (field-shapes.ts) and nested by their dotted paths, the row's `id` taken apart, read-only
// fields (id, createdAt, updatedAt and whatever else the record has that the request does not take)
// dropped. An empty CSV cell is absent: never sent, so an exported null comes back unchanged.
// Columns starting with `_` (a results file's own) are not fields.
import type { FieldShape } from '../../core/description/schema.js';
import { cellValue, shapeAt } from './field-shapes.js';
import type { SourceRow } from './input-source.js';

export interface TypedRow {
  row: number;
  /** The fields to send (nested), read-only ones removed. */
  record: Record<string, unknown>;
  /** The row's `id`, when it has one. */
  id: string | undefined;
  /** Column-level reasons the row cannot be sent ("yearBuilt: is not JSON"); empty when readable. */
  problems: string[];
}

interface Column {
  /** The input's name for it (the CSV header's). */
  name: string;
  path: string[];
  shape: FieldShape | undefined;
  /** `id` column. */
  isId: boolean;
  skip: boolean;
}

// Setting a field an input row names, without ever touching a prototype. `__proto__` is the one key
// whose plain assignment reaches Object.prototype (its setter would replace the object's prototype);
// every other key, `constructor` and `toString` included, becomes an own property by assignment.
// So only that key takes the slow `Object.defineProperty` path: the import sets a field per cell and
// per compared field, and defineProperty costs ~8x a plain assignment (nine fields on 100,000 rows:
// ~250 ms against ~30 ms on the bench machine), a few per cent of an unchanged import's CPU.
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (let index = 0; index < path.length - 1; index++) {
    const key = path[index]!;
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      const created: Record<string, unknown> = {};
      setOwnField(node, key, created);
      node = created;
    } else {
      node = next as Record<string, unknown>;
    }
  }
  setOwnField(node, path[path.length - 1]!, value);
}

export interface RowReaderOptions {
  /** The request schema's shape (create and update take the same fields). */
  shape: FieldShape;
  /** Top-level fields never sent. */
  readOnly: ReadonlySet<string>;
  /** CSV header, for CSV input. */
  header?: readonly string[] | undefined;
  /** --map: input column or field name → field path. */
  rename?: ReadonlyMap<string, string> | undefined;
}

export class RowReader {
  private readonly columns: Column[];

  constructor(private readonly options: RowReaderOptions) {
    this.columns = (options.header ?? []).map((name) => {
      const mapped = options.rename?.get(name) ?? name;
      const path = mapped.split('.');
      const top = path[0]!;
      return {
        name,
        path,
        shape: shapeAt(options.shape, path),
        isId: mapped === 'id',
        skip: mapped.startsWith('_') || (mapped !== 'id' && options.readOnly.has(top)),
      };
    });
  }

  /**
   * The columns whose field the request schema does not publish, each with the published field its
   * name most likely means (the same letters in another case, or with `_`, `-` or spaces: `year_built`,
   * `YearBuilt`). They are sent as they are (the published requests take fields beyond their own), so
   * a misspelt column would quietly leave its field unset.
   */
  unpublishedColumns(): Array<{ column: string; meant: string | undefined }> {
    const published = fieldPaths(this.options.shape);
    const byLetters = new Map(published.map((path) => [letters(path), path]));
    return this.columns
      .filter((column) => !column.skip && !column.isId && !isPublished(this.options.shape, column.path))
      .map((column) => ({ column: column.name, meant: byLetters.get(letters(column.path.join('.'))) }));
  }

  read(source: SourceRow): TypedRow {
    if (source.problem !== undefined) return { row: source.row, record: {}, id: undefined, problems: [`row ${source.problem}`] };
    if (source.cells) return this.fromCells(source.row, source.cells);
    return this.fromValue(source.row, source.value);
  }

  private fromCells(row: number, cells: readonly string[]): TypedRow {
    const record: Record<string, unknown> = {};
    const problems: string[] = [];
    let id: string | undefined;
    this.columns.forEach((column, index) => {
      const text = cells[index] ?? '';
      if (column.skip || text === '') return;
      if (column.isId) {
        id = text.trim();
        return;
      }
      try {
        setPath(record, column.path, cellValue(text, column.shape));
      } catch (error) {
        problems.push(`${column.path.join('.')}: ${(error as Error).message}`);
      }
    });
    return { row, record, id, problems };
  }

  private fromValue(row: number, value: unknown): TypedRow {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { row, record: {}, id: undefined, problems: ['row is not a JSON object'] };
    const record: Record<string, unknown> = {};
    let id: string | undefined;
    for (const [name, field] of Object.entries(value)) {
      const mapped = this.options.rename?.get(name) ?? name;
      if (mapped === 'id') {
        if (typeof field === 'string' && field !== '') id = field;
        else if (field !== undefined && field !== null) return { row, record, id, problems: ['id: must be a string'] };
        continue;
      }
      if (mapped.startsWith('_') || this.options.readOnly.has(mapped.split('.')[0]!)) continue;
      setPath(record, mapped.split('.'), field);
    }
    return { row, record, id, problems: [] };
  }
}

/** Whether the schema publishes the field at `path` (any field under an object that lists none of its own). */
function isPublished(root: FieldShape, path: readonly string[]): boolean {
  let shape = root;
  for (const key of path) {
    if (shape.properties.size === 0) return true;
    const next = shape.properties.get(key);
    if (next === undefined) return false;
    shape = next;
  }
  return true;
}

/** Every field path the schema publishes (`address`, `address.city`, …). */
function fieldPaths(shape: FieldShape, prefix = ''): string[] {
  return [...shape.properties].flatMap(([key, field]) => [`${prefix}${key}`, ...fieldPaths(field, `${prefix}${key}.`)]);
}

/** A name's letters and digits, lower case: `Year_Built` and `yearBuilt` are the same. */
function letters(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}

/** `--map` file: a JSON object `{"Input column": "field.path"}`. */
export function parseRename(text: string, display: string): Map<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${display}: not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${display}: expected a JSON object of "input column": "field.path"`);
  const rename = new Map<string, string>();
  for (const [from, to] of Object.entries(value)) {
    if (typeof to !== 'string' || to.trim() === '') throw new Error(`${display}: the new name of ${from} must be a field path`);
    if (to.split('.').some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype' || key === ''))
      throw new Error(`${display}: ${to} is not a field path`);
    rename.set(from, to.trim());
  }
  return rename;
}
