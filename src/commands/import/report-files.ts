// The two files an import leaves: --results, a CSV of every input row plus `_row, _status, _id,
// _error` (CSV input: its own columns; NDJSON/JSON input: `id` and the request schema's fields as
// dotted columns), and --failed, only the rows to fix in the input's own form (same CSV header, same
// NDJSON lines, a JSON array), so it imports again as it is. Each is written to a temp file beside its
// path and renamed into place when the run ends, so a crash never leaves half a file; --failed is
// only placed when some row needs fixing.
import { rename } from 'node:fs/promises';
import { defaultFileMode } from '../../core/owned-file.js';
import { createTempBeside, csvRow, getField, type TempFile } from '../../output/index.js';
import type { FieldShape } from './field-shapes.js';
import type { InputFormat, SourceRow } from './input.js';

export type RowStatus = 'created' | 'updated' | 'unchanged' | 'invalid' | 'failed' | 'skipped';

export interface RowResult {
  row: number;
  status: RowStatus;
  id: string | undefined;
  error: string | undefined;
  /** Rows to fix go to --failed (a create whose answer was lost does not: it may exist). */
  toFix: boolean;
}

export const STATUS_COLUMNS = ['_row', '_status', '_id', '_error'] as const;

/** The leaf field paths of a request schema, in schema order (arrays and bare objects are one cell). */
export function fieldColumns(shape: FieldShape, prefix: string[] = []): string[][] {
  const columns: string[][] = [];
  for (const [name, child] of shape.properties) {
    const path = [...prefix, name];
    if (child.properties.size > 0 && !child.types.has('array')) columns.push(...fieldColumns(child, path));
    else columns.push(path);
  }
  return columns;
}

interface Placed {
  temp: TempFile;
  target: string;
}

async function finish(file: Placed): Promise<void> {
  await file.temp.writer.complete(defaultFileMode());
  await rename(file.temp.path, file.target);
  file.temp.placed();
}

export class ResultsFile {
  private constructor(
    private readonly file: Placed,
    private readonly columns: string[][] | undefined,
  ) {}

  /** `header`: the CSV input's header; else `columns` are the fields written from each JSON row. */
  static async create(target: string, display: string, header: readonly string[] | undefined, shape: FieldShape): Promise<ResultsFile> {
    const temp = await createTempBeside(target, display);
    const columns = header ? undefined : [['id'], ...fieldColumns(shape)];
    const names = header ?? columns!.map((path) => path.join('.'));
    await temp.writer.write(csvRow([...names, ...STATUS_COLUMNS]));
    return new ResultsFile({ temp, target }, columns);
  }

  async add(source: SourceRow, result: RowResult): Promise<void> {
    const own = this.columns ? this.columns.map((path) => getField(source.value, path)) : (source.cells ?? []);
    await this.file.temp.writer.write(csvRow([...own, result.row, result.status, result.id ?? '', result.error ?? '']));
  }

  finish(): Promise<void> {
    return finish(this.file);
  }

  discard(): Promise<void> {
    return this.file.temp.remove();
  }
}

export class FailedFile {
  private count = 0;

  private constructor(
    private readonly file: Placed,
    private readonly format: InputFormat,
  ) {}

  /**
   * `utf8Bom`: the input was in another encoding (--encoding); the rows are written in UTF-8 with a
   * byte-order mark, which Excel reads as UTF-8 and which makes a re-import with --encoding refuse it
   * rather than garble it.
   */
  static async create(
    target: string,
    display: string,
    format: InputFormat,
    header: readonly string[] | undefined,
    utf8Bom = false,
  ): Promise<FailedFile> {
    const temp = await createTempBeside(target, display);
    if (utf8Bom) await temp.writer.write('\uFEFF');
    if (format === 'csv') await temp.writer.write(csvRow(header ?? []));
    if (format === 'json') await temp.writer.write('[\n');
    return new FailedFile({ temp, target }, format);
  }

  get rows(): number {
    return this.count;
  }

  async add(source: SourceRow): Promise<void> {
    const writer = this.file.temp.writer;
    if (this.format === 'csv') await writer.write(csvRow(source.cells ?? []));
    else if (this.format === 'ndjson') await writer.write(`${source.line ?? JSON.stringify(source.value)}\n`);
    else await writer.write(`${this.count > 0 ? ',\n' : ''}${JSON.stringify(source.value ?? null)}`);
    this.count++;
  }

  /** Placed only when it holds a row; otherwise nothing is left behind. */
  async finish(): Promise<void> {
    if (this.count === 0) return this.discard();
    if (this.format === 'json') await this.file.temp.writer.write('\n]\n');
    await finish(this.file);
  }

  discard(): Promise<void> {
    return this.file.temp.remove();
  }
}
