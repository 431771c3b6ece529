// Checks against the service's published schemas (ajv, loaded only here and only when asked):
// request bodies of create/update before sending (exit 2, unless --no-validate), and with --validate
// every record a list or get answers (reported on stderr after the output, exit 9).
import type { ApiClient, ApiRecord, HttpMethod } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { ContractError, UsageError } from '../../core/errors.js';
import type { PublishedOperation } from '../../core/description/document.js';
import type { Validator, Violation } from '../../core/description/validate.js';
import type { IO } from '../../core/io.js';

/** Violations shown in a message; the rest are counted. */
const SHOWN = 5;

/** What answers are checked against: the operation as published and the description's validator (a list's contract is one). */
export interface CheckedOperation {
  readonly operation: PublishedOperation;
  validator(): Promise<Validator>;
}

/** The operation `method path` is bound to, when the command is bound to a description. */
export async function checkedOperation(api: ApiClient, method: HttpMethod, path: string): Promise<CheckedOperation | undefined> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const binding = bindingOf(api);
  const route = binding?.route(method, path);
  if (!binding || !route) return undefined;
  return { operation: route.bound.published, validator: () => binding.validator() };
}

function operationName(operation: PublishedOperation): string {
  return operation.operationId ?? `${operation.method} ${operation.path}`;
}

async function joiner(): Promise<(violations: readonly Violation[]) => string> {
  const { formatViolations } = await import('../../core/description/validate.js');
  return (violations) => formatViolations(violations, SHOWN);
}

/**
 * A field `-f` set as text whose published type is another (`-f yearBuilt=1990`, an integer): the
 * violation says "must be integer", and the way to send one is `-F`, which reads its value as JSON.
 */
function textWhereTypedHint(violations: readonly Violation[], textFields: readonly string[]): string | undefined {
  const names = new Set(textFields.map((raw) => raw.slice(0, Math.max(0, raw.indexOf('=')))));
  const field = violations
    .filter((violation) => /must be (integer|number|boolean|null|array|object)/.test(violation.message))
    .map((violation) => violation.path.replace(/^\$\.?/, ''))
    .find((name) => names.has(name));
  return field === undefined ? undefined : `-f sends text: give ${field} as a number, a boolean or null with -F ${field}=VALUE`;
}

/**
 * Refuse a body the published request schema rejects, before any request (exit 2). `textFields`:
 * the `-f name=value` given, for the hint when one of them needed `-F`.
 */
export async function checkRequestBody(
  ctx: Context,
  method: HttpMethod,
  path: string,
  body: unknown,
  textFields: readonly string[] = [],
): Promise<void> {
  const bound = await checkedOperation(await ctx.api(), method, path);
  if (!bound || bound.operation.requestSchema === undefined) return;
  const violations = (await bound.validator()).request(bound.operation, body);
  if (violations.length === 0) return;
  const joinViolations = await joiner();
  throw new UsageError(
    `the request body does not match the published schema of ${operationName(bound.operation)}: ${joinViolations(violations)}`,
    {
      hint:
        textWhereTypedHint(violations, textFields) ??
        'fix those fields; if the service description is wrong, send it anyway with --no-validate',
    },
  );
}

export interface RecordChecker {
  check(record: ApiRecord): void;
  /** After the output is written: report on stderr and fail with exit 9 when any record broke the schema. */
  finish(): void;
}

/** `--validate`: a checker for the records of `checked`, or undefined when there is nothing to check against. */
export async function recordChecker(io: IO, checked: CheckedOperation | undefined): Promise<RecordChecker | undefined> {
  if (!checked) {
    io.warn('--validate: no published response schema to check against');
    return undefined;
  }
  const validator = await checked.validator();
  const joinViolations = await joiner();
  const { operation } = checked;
  let count = 0;
  let failed = 0;
  const first: string[] = [];
  return {
    check(record) {
      count++;
      const violations = validator.record(operation, record);
      if (violations.length === 0) return;
      failed++;
      if (first.length < SHOWN)
        first.push(`record ${typeof record.id === 'string' ? record.id : `#${count}`}: ${joinViolations(violations)}`);
    },
    finish() {
      if (failed === 0) {
        io.debug(`--validate: ${count} records match the published schema of ${operationName(operation)}`);
        return;
      }
      for (const line of first) io.warn(line);
      if (failed > first.length) io.warn(`… and ${failed - first.length} more records`);
      throw new ContractError(`${failed} of ${count} records do not match the published schema of ${operationName(operation)}`, {
        hint: 'the output holds every record as the service sent it; the lines above name the first ones and the fields',
      });
    },
  };
}
