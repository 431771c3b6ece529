// The record a create/update sends, from `--data JSON|@file|-` as the base, then `-f key=value`
// (strings) and `-F key=value` (JSON-typed) applied in order, dotted keys making nested objects.
// Every problem is a one-line UsageError (exit 2) before any request is made.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { inexactIntegerIn } from '../http/exact-numbers.js';
import { quoteInput } from '../ids.js';
import { parseAssignment, setPath, typedValue } from './field-assignments.js';
import { parseJsonInput } from './json-errors.js';
import { isObject, kindOf, refuseForbiddenKeys, type JsonObject } from './json-object.js';
import { readDataFile, readStdin, refuseSharedStdin } from './read-input.js';

export { locateJsonError } from './json-errors.js';
export { MAX_INPUT_BYTES, readDataFile, readStdin, refuseSharedStdin } from './read-input.js';

export interface RecordInputOptions {
  /** --data: JSON text, @file, or - (stdin). */
  data?: string | undefined;
  /** -f key=value: string values; dotted keys make nested objects. */
  fields?: string[] | undefined;
  /** -F key=value: the value read as JSON (12, true, null, [..], {..}), else kept as a string. */
  typedFields?: string[] | undefined;
}

/** Whether a number in the tree is not finite: JSON.parse reads 1e400 as Infinity, which is sent as null. */
function hasInfinity(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'number' && !Number.isFinite(value)) return true;
    if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) stack.push(child);
  }
  return false;
}

/**
 * A number JSON.parse would change is refused, as -F refuses it: an integer past 2^53 would be sent
 * rounded, and 1e400 as null (which a merge patch reads as "remove the field").
 */
function refuseInexactNumbers(text: string, parsed: unknown, source: string): void {
  const integer = inexactIntegerIn(text);
  if (integer !== undefined) {
    throw new UsageError(`${source}: ${integer} is too large for an exact JSON number`, { hint: `send it as a string: "${integer}"` });
  }
  if (hasInfinity(parsed)) throw new UsageError(`${source}: a number is too large for JSON (it would be sent as null)`);
}

async function readData(ctx: Context, data: string): Promise<JsonObject> {
  let source = '--data';
  let text: string;
  if (data === '-' || data === '@-') {
    source = `--data ${data}`;
    refuseSharedStdin(ctx, source);
    text = await readStdin(ctx, ctx.io.stdin, source);
  } else if (data.startsWith('@')) {
    source = `--data ${quoteInput(data).slice(1, -1)}`;
    text = await readDataFile(ctx, data.slice(1), source);
  } else {
    text = data;
  }
  if (text.trim() === '') throw new UsageError(`${source}: empty input, expected a JSON object`);
  const parsed = parseJsonInput(text, source);
  if (!isObject(parsed)) throw new UsageError(`${source} must be a JSON object, got ${kindOf(parsed)}`);
  refuseForbiddenKeys(parsed, source);
  refuseInexactNumbers(text, parsed, source);
  return parsed;
}

/**
 * The record to send: --data as the base, then every -f, then every -F, each in the order given.
 * UsageError (exit 2) for unreadable or invalid input, a non-object, or a bad key=value.
 */
export async function readRecordInput(ctx: Context, options: RecordInputOptions): Promise<Record<string, unknown>> {
  const fields = options.fields ?? [];
  const typedFields = options.typedFields ?? [];
  if (options.data === undefined && fields.length === 0 && typedFields.length === 0) {
    throw new UsageError('no record given', { hint: 'pass --data JSON|@file|- or -f field=value (dotted names for nested fields)' });
  }
  const record = options.data === undefined ? {} : await readData(ctx, options.data);
  for (const raw of fields) {
    const { path, value } = parseAssignment('-f', raw);
    setPath(record, path, value, '-f');
  }
  for (const raw of typedFields) {
    const { path, value } = parseAssignment('-F', raw);
    setPath(record, path, typedValue(path.join('.'), value), '-F');
  }
  return record;
}
