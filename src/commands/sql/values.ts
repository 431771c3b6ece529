// A DuckDB result as the CLI prints records: numbers as JSON numbers where a JavaScript number holds
// them exactly (count(*) is a BIGINT, sum() a HUGEINT: DuckDB's own JSON conversion makes both
// strings), times as RFC 3339 like the service's (`2026-11-29T10:40:47.977Z`, microseconds when there
// are any), dates as `YYYY-MM-DD`, JSON columns parsed, lists and structs as arrays and objects. A
// number no JavaScript number holds exactly is refused, as a service's is (core/http/exact-numbers.ts),
// rather than printed changed. And the result's column types as a published schema, so that a Parquet
// file of a query is typed as an export's is (output/parquet-schema.ts).
import type { DuckDBType, DuckDBValue, DuckDBValueConverter } from '@duckdb/node-api';
import { UsageError } from '../../core/errors.js';
import { inexactIntegerIn } from '../../core/http/exact-numbers.js';
import type { PublishedSchema } from '../../output/index.js';
import type { DuckDBModule } from '../sync/public.js';

/** Significant digits every double holds exactly. */
const EXACT_DIGITS = 15;

function inexact(column: string, text: string): UsageError {
  return new UsageError(`column ${column}: ${text.slice(0, 60)} cannot be printed exactly as a number`, {
    hint: `CAST it to VARCHAR in the query (CAST(… AS VARCHAR) AS ${column}) to print its digits as text`,
  });
}

/** A whole number as a JavaScript number, when that is exact. */
function exactInteger(column: string, value: bigint): number {
  const number = Number(value);
  if (BigInt(number) !== value || String(number) !== value.toString()) throw inexact(column, value.toString());
  return number;
}

/** A decimal's text as a number, when it has no more significant digits than a double holds. */
function exactDecimal(column: string, text: string): number {
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  const significant = text.includes('.') ? digits.replace(/0+$/, '') : digits;
  if (significant.length > EXACT_DIGITS) throw inexact(column, text);
  return Number(text);
}

/** DuckDB's infinite dates and times: the largest value of their type and its negation. */
const INFINITE_DAYS = 2 ** 31 - 1;
const INFINITE_TICKS = 2n ** 63n - 1n;

/** `infinity` or `-infinity` as DuckDB prints them, for a value that is one; else undefined. */
function infinity(value: bigint | number, infinite: bigint | number): string | undefined {
  if (value === infinite) return 'infinity';
  return value === -infinite ? '-infinity' : undefined;
}

/**
 * A time since the epoch, in ticks of 10^-digits seconds (6: microseconds, 9: nanoseconds), as RFC
 * 3339 (`Z` for a time zone's; none for a TIMESTAMP without one), its fraction to the tick: DuckDB's
 * own text for the nanosecond and millisecond types has a space for the `T`.
 */
function timeText(ticks: bigint, digits: 0 | 3 | 6 | 9, zone: string): string | undefined {
  const infinite = infinity(ticks, INFINITE_TICKS);
  if (infinite !== undefined) return infinite;
  const perSecond = 10n ** BigInt(digits);
  const fraction = ((ticks % perSecond) + perSecond) % perSecond;
  const date = new Date(Number((ticks - fraction) / perSecond) * 1000);
  if (Number.isNaN(date.getTime())) return undefined; // beyond what a Date holds
  const text = date.toISOString().slice(0, 19);
  // Milliseconds always (as the service writes times), then three digits more while any are left.
  let shown = String(fraction).padStart(digits, '0').padEnd(3, '0');
  while (shown.length > 3 && shown.endsWith('000')) shown = shown.slice(0, -3);
  return `${text}.${shown}${zone}`;
}

/** The converter for one result (`column` names the column a refused value is in). */
export function recordConverter(duckdb: DuckDBModule, column: () => string): DuckDBValueConverter<unknown> {
  const { DuckDBTypeId: T, JsonDuckDBValueConverter: json } = duckdb;
  const convert: DuckDBValueConverter<unknown> = (value: DuckDBValue, type: DuckDBType, self) => {
    if (value === null) return null;
    switch (type.typeId) {
      case T.BIGINT:
      case T.UBIGINT:
      case T.HUGEINT:
      case T.UHUGEINT:
        return exactInteger(column(), value as bigint);
      case T.DECIMAL:
        return exactDecimal(column(), String(value));
      case T.TIMESTAMP_TZ:
        return timeText((value as { micros: bigint }).micros, 6, 'Z') ?? String(value);
      case T.TIMESTAMP:
        return timeText((value as { micros: bigint }).micros, 6, '') ?? String(value);
      case T.TIMESTAMP_NS:
        return timeText((value as { nanos: bigint }).nanos, 9, '') ?? String(value);
      case T.TIMESTAMP_MS:
        return timeText((value as { millis: bigint }).millis, 3, '') ?? String(value);
      case T.TIMESTAMP_S:
        return timeText((value as { seconds: bigint }).seconds, 0, '') ?? String(value);
      case T.DATE:
        // node-api's text for DuckDB's infinite dates is a date some million years away.
        return infinity((value as { days: number }).days, INFINITE_DAYS) ?? String(value);
      case T.INTERVAL:
        // DuckDB's own text (`1 month 2 days 01:30:00.5`), as its shell and CAST print it: its parts
        // may have signs of their own, which an ISO 8601 duration cannot say.
        return String(value);
      case T.VARCHAR:
        if (type.alias === 'JSON') {
          const text = value as string;
          try {
            const parsed: unknown = JSON.parse(text);
            const changed = inexactIntegerIn(text);
            if (changed !== undefined) throw inexact(column(), changed);
            return parsed;
          } catch (error) {
            if (error instanceof UsageError) throw error;
            return text;
          }
        }
        return value;
      default:
        return (json as DuckDBValueConverter<unknown>)(value, type, self);
    }
  };
  return convert;
}

/** A column type as JSON Schema: what output/parquet-schema.ts maps back to a Parquet column. */
function schemaOf(duckdb: DuckDBModule, type: DuckDBType): Record<string, unknown> {
  const T = duckdb.DuckDBTypeId;
  switch (type.typeId) {
    case T.BOOLEAN:
      return { type: 'boolean' };
    case T.TINYINT:
    case T.SMALLINT:
    case T.INTEGER:
    case T.BIGINT:
    case T.UTINYINT:
    case T.USMALLINT:
    case T.UINTEGER:
    case T.UBIGINT:
    case T.HUGEINT:
    case T.UHUGEINT:
      return { type: 'integer' };
    case T.FLOAT:
    case T.DOUBLE:
    case T.DECIMAL:
      return { type: 'number' };
    case T.TIMESTAMP_TZ:
      return { type: 'string', format: 'date-time' };
    case T.DATE:
      return { type: 'string', format: 'date' };
    case T.LIST:
    case T.ARRAY:
      return { type: 'array', items: schemaOf(duckdb, (type as unknown as { valueType: DuckDBType }).valueType) };
    case T.STRUCT: {
      const struct = type as unknown as { entryNames: readonly string[]; entryTypes: readonly DuckDBType[] };
      return {
        type: 'object',
        properties: Object.fromEntries(struct.entryNames.map((name, i) => [name, schemaOf(duckdb, struct.entryTypes[i]!)])),
      };
    }
    case T.VARCHAR:
      // A JSON column holds any value: no usable schema, so a JSON column in Parquet too.
      return type.alias === 'JSON' ? {} : { type: 'string' };
    case T.MAP:
    case T.UNION:
    case T.VARIANT:
      // Printed as objects: JSON in a Parquet file.
      return {};
    default:
      // UUID, TIME, INTERVAL, BLOB, ENUM, a TIMESTAMP without a zone…: printed as text.
      return { type: 'string' };
  }
}

/** The result's columns as a record schema (every column present, each nullable as SQL's are). */
export function resultSchema(duckdb: DuckDBModule, names: readonly string[], types: readonly DuckDBType[]): PublishedSchema {
  const properties = Object.fromEntries(names.map((name, i) => [name, schemaOf(duckdb, types[i]!)]));
  return { document: {}, schema: { type: 'object', properties } };
}
