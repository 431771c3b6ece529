// Writing one record (`get`, `create`, a command's single answer) in the plan's format to stdout or
// the `--out` file written atomically; a list of records goes through the pipe (pipe.ts).
import type { Context } from '../core/context.js';
import { ContractError, UsageError } from '../core/errors.js';
import type { OutputPlan } from '../core/output-plan.js';
import { csvRow, recordPaths } from './csv.js';
import { atomicOutFile } from './atomic-out-file.js';
import type { Destination } from './destination.js';
import { fieldSelection, flattenRecord, getField, projection } from './fields.js';
import { jsonDocument } from './json.js';
import { countOf, type View } from './view.js';
import { ndjsonLine } from './ndjson.js';
import { abortReason } from './pipe.js';
import { stdoutDestination, type StdoutOptions } from './stdout-destination.js';
import { keyValueTable } from './table.js';

/** The plan's `--out` file written atomically, or stdout: where one record (writeRecord) or a text output (api, smoke) goes. */
export async function openDestination(ctx: Context, options: StdoutOptions = {}): Promise<Destination> {
  return ctx.output.outPath === undefined ? stdoutDestination(ctx.io, options) : atomicOutFile(ctx.output);
}

async function encodeRecord(plan: OutputPlan, record: Record<string, unknown>, view: View): Promise<string> {
  switch (plan.format) {
    case 'json':
      return jsonDocument(projection(plan)(record));
    case 'ndjson':
      return ndjsonLine(projection(plan)(record));
    case 'csv': {
      const recordColumns = view.recordColumns ? fieldSelection(view.recordColumns) : undefined;
      const own = recordPaths(record);
      const { names, paths } = plan.fields ?? recordColumns ?? { names: own.map((path) => path.join('.')), paths: own };
      return (
        csvRow(names, { terminal: plan.terminal }) +
        csvRow(
          paths.map((path) => getField(record, path)),
          { terminal: plan.terminal },
        )
      );
    }
    case 'parquet':
      throw new UsageError('-o parquet writes a list to a file; one record is shown with -o json, ndjson, csv or table');
    case 'table': {
      const fields = plan.fields;
      const rows = fields
        ? fields.names.flatMap((name, i): Array<[string, unknown]> => {
            const value = getField(record, fields.paths[i]!);
            return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
              ? flattenRecord(value as Record<string, unknown>, name)
              : [[name, value]];
          })
        : flattenRecord(record);
      const shown = rows.map(([name, value]): [string, unknown] => [name, value ?? view.blank?.[name] ?? value]);
      return keyValueTable(shown, { color: plan.color, width: plan.width });
    }
  }
}

/** Print one record: json pretty-printed, table as key/value rows, ndjson/csv as for lists. */
export async function writeRecord(ctx: Context, record: Record<string, unknown>, view: View): Promise<void> {
  // Records come from the service: an answer without one (an empty 201, a 204 to a PATCH) is its
  // broken contract, not a crash of the formatter.
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new ContractError(
      `the service answered without a ${view.singular ?? view.label} to show (got ${record === undefined ? 'an empty answer' : Array.isArray(record) ? 'an array' : String(record)})`,
      {
        hint: 'the service broke its published contract; report it with the request id from --verbose',
      },
    );
  }
  const plan = ctx.output;
  void plan.format;
  const destination = await openDestination(ctx);
  try {
    const text = await encodeRecord(plan, record, view);
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    await destination.write(text);
    await destination.finish();
  } catch (error) {
    await destination.discard();
    throw error;
  }
  if (destination.displayPath !== undefined) ctx.io.notice(`Wrote ${countOf(1, view)} to ${destination.displayPath}`);
}
