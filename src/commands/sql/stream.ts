// A statement's rows, a chunk at a time (2,048 rows: memory holds one chunk, whatever the result's
// size), as records (values.ts), and how the stream ends. A stream left before its end (--max-items,
// a reader gone, Ctrl-C, a failure) is interrupted and fetched until DuckDB says it is over: only
// then does DuckDB let go of the file. Otherwise the result keeps it until it is garbage collected,
// and a long-running `appraisal mcp` would keep a sync from writing the file meanwhile (seen).
import type { DuckDBResult } from '@duckdb/node-api';
import type { QueryDatabase } from './open.js';
import { recordConverter } from './values.js';

/** Fetches after an interrupt before giving up on DuckDB ending the stream (it ends at the first). */
const ENDING_FETCHES = 3;

export class RowStream {
  readonly names: readonly string[];
  /** The chunk being fetched, if any: the connection is not closed under it. */
  private pending: Promise<unknown> | undefined;
  private finished = false;

  constructor(
    private readonly database: QueryDatabase,
    private readonly result: DuckDBResult,
  ) {
    this.names = result.columnNames();
  }

  private next() {
    const fetching = this.result.fetchChunk();
    this.pending = fetching;
    return fetching;
  }

  /** The rows as records, at most `maxItems` of them. */
  async *rows(maxItems: number | undefined): AsyncGenerator<Record<string, unknown>> {
    const names = this.names;
    let column = 0;
    const convert = recordConverter(this.database.duckdb, () => names[column] ?? '');
    // The result's types, not the vectors': only these carry the JSON alias of a JSON column.
    const types = this.result.columnTypes();
    let left = maxItems ?? Infinity;
    for (let chunk = await this.next(); chunk !== null && chunk.rowCount > 0; chunk = await this.next()) {
      // Read once a chunk: each is a call into the native binding.
      const columns = chunk.columnCount;
      const count = chunk.rowCount;
      const values = Array.from({ length: columns }, (_, index) => chunk!.getColumnVector(index));
      for (let row = 0; row < count; row++) {
        const record: Record<string, unknown> = {};
        for (column = 0; column < columns; column++) {
          const vector = values[column]!;
          record[names[column]!] = convert(vector.getItem(row), types[column]!, convert);
        }
        yield record;
        // --max-items: the rest of the result is never computed (end() interrupts it).
        if (--left <= 0) return;
      }
    }
    this.finished = true;
  }

  /** Done with it, read to its end or not: DuckDB has let go of the query (and so of the file). */
  async end(): Promise<void> {
    if (this.finished) return;
    this.database.connection.interrupt();
    await this.pending?.catch(() => undefined);
    for (let tries = 0; tries < ENDING_FETCHES; tries++) {
      const chunk = await this.next().catch(() => null);
      if (chunk === null || chunk.rowCount === 0) break;
    }
    this.finished = true;
  }
}
