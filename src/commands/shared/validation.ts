// Checks against the service's published schemas (ajv, loaded only here and only when asked):
// request bodies of create/update before sending (exit 2, unless --no-validate), and with --validate
// every record a list or get answers (reported on stderr after the output, exit 9).
import type { ApiClient, ApiRecord, HttpMethod } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { ContractError, UsageError } from '../../core/errors.js';
import type { Route } from '../../core/description/operation-binding.js';
import type { Validator, Violation } from '../../core/description/validate.js';

/** Violations shown in a message; the rest are counted. */
const SHOWN = 5;

async function boundRoute(
  api: ApiClient,
  method: HttpMethod,
  path: string,
): Promise<{ route: Route; validator: () => Promise<Validator> } | undefined> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const binding = bindingOf(api);
  const route = binding?.route(method, path);
  if (!binding || !route) return undefined;
  return { route, validator: async () => (await import('../../core/description/validate.js')).validatorFor(binding.description.contract) };
}

function operationName(route: Route): string {
  const { published } = route.bound;
  return published.operationId ?? `${published.method} ${published.path}`;
}

async function joiner(): Promise<(violations: readonly Violation[]) => string> {
  const { formatViolations } = await import('../../core/description/validate.js');
  return (violations) => formatViolations(violations, SHOWN);
}

/** Refuse a body the published request schema rejects, before any request (exit 2). */
export async function checkRequestBody(ctx: Context, method: HttpMethod, path: string, body: unknown): Promise<void> {
  const bound = await boundRoute(await ctx.api(), method, path);
  if (!bound || bound.route.bound.published.requestSchema === undefined) return;
  const violations = (await bound.validator()).request(bound.route.bound.published, body);
  if (violations.length === 0) return;
  const joinViolations = await joiner();
  throw new UsageError(
    `the request body does not match the published schema of ${operationName(bound.route)}: ${joinViolations(violations)}`,
    {
      hint: 'fix those fields; if the service description is wrong, send it anyway with --no-validate',
    },
  );
}

export interface RecordChecker {
  check(record: ApiRecord): void;
  /** After the output is written: report on stderr and fail with exit 9 when any record broke the schema. */
  finish(): void;
}

/** `--validate`: a checker for the records of `GET path`, or undefined when there is nothing to check against. */
export async function recordChecker(ctx: Context, path: string): Promise<RecordChecker | undefined> {
  const bound = await boundRoute(await ctx.api(), 'GET', path);
  if (!bound) {
    ctx.io.warn('--validate: no published response schema to check against');
    return undefined;
  }
  const validator = await bound.validator();
  const joinViolations = await joiner();
  const operation = bound.route.bound.published;
  let checked = 0;
  let failed = 0;
  const first: string[] = [];
  return {
    check(record) {
      checked++;
      const violations = validator.record(operation, record);
      if (violations.length === 0) return;
      failed++;
      if (first.length < SHOWN)
        first.push(`record ${typeof record.id === 'string' ? record.id : `#${checked}`}: ${joinViolations(violations)}`);
    },
    finish() {
      if (failed === 0) {
        ctx.io.debug(`--validate: ${checked} records match the published schema of ${operationName(bound.route)}`);
        return;
      }
      for (const line of first) ctx.io.warn(line);
      if (failed > first.length) ctx.io.warn(`… and ${failed - first.length} more records`);
      throw new ContractError(`${failed} of ${checked} records do not match the published schema of ${operationName(bound.route)}`, {
        hint: 'the output holds every record as the service sent it; the lines above name the first ones and the fields',
      });
    },
  };
}
