// A CSV cell as the value the service expects, by the field's shape (read from the operation's
// published request schema: core/description/schema.ts shapeOf): `yearBuilt` "1998" → 1998, a ZIP
// or parcel number "02110" stays text, `propertyIds` (an array) is one cell of JSON; a field the
// schema does not name is text.
import type { FieldShape } from '../../core/description/schema.js';

/** The shape at a dotted path, or undefined when the schema does not name it. */
export function shapeAt(root: FieldShape, path: readonly string[]): FieldShape | undefined {
  let shape: FieldShape | undefined = root;
  for (const key of path) {
    shape = shape?.properties.get(key);
    if (!shape) return undefined;
  }
  return shape;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_WITH_COMMA = /^-?\d[\d.]*,[\d.,]*\d$/;

/**
 * One cell's value for a field of this shape. Text that does not fit the type is kept as text, so
 * the schema check reports it with the column ("must be integer") instead of it being guessed at.
 * Throws (a message for the row's error) only when a JSON cell is not JSON, or a number is written
 * with a decimal comma or thousands separators.
 */
export function cellValue(text: string, shape: FieldShape | undefined): unknown {
  if (!shape || shape.types.size === 0 || shape.types.has('string')) return text;
  const { types } = shape;
  if (types.has('array') || (types.has('object') && shape.properties.size === 0) || text.startsWith('{') || text.startsWith('[')) {
    if (types.has('array') || types.has('object')) {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new Error(`is not JSON (${(error as Error).message})`);
      }
    }
  }
  if ((types.has('integer') || types.has('number')) && NUMBER.test(text.trim())) return Number(text.trim());
  // `1,53` or `1.234,5`: a spreadsheet's number where the comma is the decimal mark (or a thousands
  // separator), which the schema check would only call "must be number".
  if ((types.has('integer') || types.has('number')) && NUMBER_WITH_COMMA.test(text.trim()))
    throw new Error(`${text.trim()} is not a number: write it with a point as the decimal mark and no thousands separator (1234.5)`);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  return text;
}
