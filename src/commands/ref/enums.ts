// `ref enums`: the service's lists of allowed values. json prints the service's object as it is;
// table, csv and ndjson show one row per enum with its values.
import type { Context } from '../../core/context.js';
import { ContractError } from '../../core/errors.js';
import { writeRecord, writeRecords } from '../../output/index.js';
import { ENUMS_VIEW } from './paths.js';
import { REFERENCE_ENUMS_PATH } from '../../core/resources.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb } from '../../core/verb.js';

export interface EnumRow {
  [field: string]: unknown;
  name: string;
  values: unknown;
}

/** A value as a person reads it: strings as they are, `{code, name}`-like objects by their code. */
function valueText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object' && value !== null) {
    const named = value as { code?: unknown; value?: unknown; name?: unknown };
    const label = named.code ?? named.value ?? named.name;
    if (typeof label === 'string') return label;
  }
  return JSON.stringify(value) ?? '';
}

/** One row per enum; `values` joined with ", " (table, csv) or kept as the array (ndjson). */
export function enumRows(data: Record<string, unknown>, joined: boolean): EnumRow[] {
  return Object.entries(data).map(([name, values]) => ({
    name,
    values: joined ? (Array.isArray(values) ? values.map(valueText).join(', ') : valueText(values)) : values,
  }));
}

export async function runEnums(ctx: Context): Promise<void> {
  const api = await ctx.api();
  const data = await api.get<unknown>(REFERENCE_ENUMS_PATH);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ContractError(
      `GET ${REFERENCE_ENUMS_PATH} answered ${Array.isArray(data) ? 'an array' : typeof data}, not an object of enums`,
    );
  }
  const enums = data as Record<string, unknown>;
  const format = ctx.output.format;
  if (format === 'json') {
    await writeRecord(ctx, enums, ENUMS_VIEW);
    return;
  }
  if (format === 'table') {
    // A key/value table wraps long lists to the terminal; a list table would cut them at one cell's width.
    await writeRecord(ctx, Object.fromEntries(enumRows(enums, true).map((row) => [row.name, row.values])), ENUMS_VIEW);
    return;
  }
  async function* rows() {
    yield* enumRows(enums, format === 'csv');
  }
  await writeRecords(ctx, rows(), ENUMS_VIEW);
}

export default defineVerb({
  name: 'enums',
  summary: 'allowed values: property types, assignment statuses, report types, client types',
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [{ method: 'GET', path: REFERENCE_ENUMS_PATH }],
  examples: ['appraisal ref enums', 'appraisal ref enums -o json | jq -r ".assignmentStatuses[]"'],
  run: (ctx) => runEnums(ctx),
});
