// `appraisal api METHOD PATH`: one raw request (or every page of a collection with --all) through the
// same client, paginate() and output as every other command, so errors, exit codes, retries,
// redaction and --out behave the same.
import type { ApiRecord, ApiResponse, HttpMethod, PaginateSummary, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { confirmDestructive } from '../../core/guards.js';
import { readRecordInput } from '../../core/record-input/index.js';
import { createProgress, openDestination, writeRecord, writeRecords, type View } from '../../output/index.js';
import { pagesOf } from '../../core/paging.js';
import { checkPublicContract } from './contract-check.js';
import { fieldsAsQuery, parseHeaders, parseMethod, parseTarget } from './parse.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { recordsIn } from '../../core/http/envelope.js';
import { isOperationId, resolveOperation } from './operation.js';
import { answersOneRecord } from '../../core/description/schema.js';

export interface ApiOptions {
  data?: string;
  field?: string[];
  typedField?: string[];
  header?: string[];
  all?: boolean;
  include?: boolean;
  strict?: boolean;
  list?: boolean;
  pathParam?: string[];
  validate?: boolean;
  help?: boolean;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Columns for records of unknown shape: id first, then the first few plain fields. */
export function genericView(label: string, sample: unknown): View {
  const columns: string[] = [];
  if (isObject(sample)) {
    if ('id' in sample) columns.push('id');
    for (const [key, value] of Object.entries(sample)) {
      if (columns.length >= 6) break;
      if (key === 'id' || (typeof value === 'object' && value !== null)) continue;
      columns.push(key);
    }
    if (columns.length === 0) columns.push(...Object.keys(sample).slice(0, 6));
  }
  return { label, columns: columns.length > 0 ? columns : ['id'] };
}

/** "properties" for /api/properties?…, for progress and notices. */
export function labelFor(path: string): string {
  const segment = path.split('/').filter(Boolean).pop();
  return segment && /^[a-z][a-z-]*$/i.test(segment) ? segment : 'records';
}

/** -i: the status and the response headers, credentials redacted (core/redact.ts). */
function statusLine(ctx: Context, response: ApiResponse): string {
  const lines = [`HTTP ${response.status}`];
  const names = Object.keys(response.headers).sort();
  for (const name of names) {
    const value = response.headers[name];
    if (value !== undefined) lines.push(`${name}: ${ctx.io.redactor.redactHeader(name, String(value))}`);
  }
  return `${lines.join('\n')}\n\n`;
}

function bodyText(body: unknown): string {
  if (body === undefined) return '';
  if (typeof body === 'string') return body.endsWith('\n') || body === '' ? body : `${body}\n`;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** Text (headers, a plain-text body) bound for a person's terminal goes through the one sanitising step. */
function forTerminal(ctx: Context, text: string): string {
  return ctx.output.terminal ? terminalSafe(text) : text;
}

async function* once<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Write the response: the body as JSON unless a record format was asked for explicitly. */
async function writeResponse(ctx: Context, path: string, response: ApiResponse, include: boolean): Promise<void> {
  const prefix = include ? forTerminal(ctx, statusLine(ctx, response)) : '';
  const plan = ctx.output;
  const wantsRecords = plan.fields !== undefined || (plan.formatExplicit && plan.format !== 'json');
  const records = wantsRecords ? recordsIn(response.body) : undefined;
  if (records) {
    if (prefix) ctx.io.stdout.write(prefix);
    const label = labelFor(path);
    if ('list' in records) await writeRecords(ctx, once(records.list), genericView(label, records.list[0]));
    else await writeRecord(ctx, records.one, genericView(label, records.one));
    return;
  }
  const destination = await openDestination(ctx);
  try {
    await destination.write(prefix + forTerminal(ctx, bodyText(response.body)));
    await destination.finish();
  } catch (error) {
    await destination.discard();
    throw error;
  }
  if (destination.displayPath !== undefined) ctx.io.notice(`Wrote the response to ${destination.displayPath}`);
}

/** --all: every record of the collection through paginate(), streamed like `<noun> list`. */
async function writeAllPages(ctx: Context, path: string, query: Query): Promise<void> {
  const label = labelFor(path);
  const progress = createProgress(ctx, label);
  const pages = pagesOf(await ctx.api(), ctx.globals, ctx.signal, path, query, (fetched, total) => progress.update(fetched, total));
  try {
    // The first record decides the default columns of a collection the CLI has no view for.
    const first = await pages.next();
    const view = genericView(label, first.done ? undefined : first.value);
    async function* records(): AsyncGenerator<ApiRecord> {
      let summary: PaginateSummary;
      if (first.done) summary = first.value;
      else {
        yield first.value;
        summary = yield* pages;
      }
      progress.stop();
      for (const warning of summary.warnings) ctx.io.warn(warning);
    }
    await writeRecords(ctx, records(), view);
  } finally {
    progress.stop();
    await pages.return(undefined as never).catch(() => undefined);
  }
}

export async function runApi(ctx: Context, args: readonly string[], options: ApiOptions): Promise<void> {
  if (options.list) {
    if (args.length > 0) throw new UsageError('--list takes no METHOD or PATH');
    const { runList } = await import('./list.js');
    return runList(ctx);
  }
  let [rawMethod, rawPath] = args;
  if (isOperationId(args)) {
    const resolved = await resolveOperation(ctx, args[0]!, options.pathParam);
    [rawMethod, rawPath] = [resolved.method, resolved.path];
  } else if (options.pathParam !== undefined) {
    throw new UsageError('--path-param goes with an operationId, e.g. `appraisal api getProperty --path-param id=…`');
  }
  if (rawMethod === undefined || rawPath === undefined) {
    throw new UsageError('api needs METHOD and PATH, e.g. `appraisal api GET /api/properties`', {
      hint: 'list the published operations with `appraisal api --list`',
    });
  }
  const method: HttpMethod = parseMethod(rawMethod);
  const target = parseTarget(rawPath);
  const headers = parseHeaders(options.header);
  const readOnly = method === 'GET' || method === 'HEAD';
  if (options.all && method !== 'GET') throw new UsageError('--all pages through a collection: it needs GET');
  if (options.all && options.include) throw new UsageError('-i/--include shows one response; it cannot be combined with --all');
  if (options.all && Object.keys(headers).length > 0) throw new UsageError('-H cannot be combined with --all');

  let query: Query;
  let body: unknown;
  if (readOnly) {
    if (options.data !== undefined) {
      throw new UsageError(`--data sends a body, which ${method} does not take`, { hint: 'use -f name=value to add query parameters' });
    }
    const withFields = fieldsAsQuery(target.query, options.field, options.typedField);
    const paging: Record<string, string> = {};
    // Without --all, --page/--page-size simply become the collection's page and limit.
    if (!options.all && ctx.globals.page !== undefined && withFields.page === undefined) paging.page = String(ctx.globals.page);
    if (!options.all && ctx.globals.pageSize !== undefined && withFields.limit === undefined) paging.limit = String(ctx.globals.pageSize);
    query = { ...withFields, ...paging };
  } else {
    query = target.query;
    const hasInput = options.data !== undefined || (options.field?.length ?? 0) > 0 || (options.typedField?.length ?? 0) > 0;
    if (hasInput) body = await readRecordInput(ctx, { data: options.data, fields: options.field, typedFields: options.typedField });
  }
  await ctx.output.ready();

  const published = await checkPublicContract(ctx, method, target.path, { strict: options.strict });
  if (body !== undefined && options.validate !== false && published?.operation.requestSchema !== undefined) {
    const { formatViolations, createValidator } = await import('../../core/description/validate.js');
    const violations = (await createValidator(published.contract)).request(published.operation, body);
    if (violations.length > 0) {
      throw new UsageError(
        `the request body does not match the published schema of ${published.operation.operationId ?? `${method} ${published.operation.path}`}: ${formatViolations(violations)}`,
        {
          hint: 'fix those fields; if the service description is wrong, send it anyway with --no-validate',
        },
      );
    }
  }
  if (options.all && published !== undefined) {
    const { operation, contract } = published;
    if (answersOneRecord(contract.document, operation.responseSchema, operation.envelope)) {
      // The description says so: a usage error now, not a broken contract (exit 9) after the request.
      throw new UsageError(
        `--all pages through a collection, but ${method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''} returns one record`,
        { hint: 'drop --all to get the record' },
      );
    }
  }
  if (method === 'DELETE') await confirmDestructive(ctx, `DELETE ${target.path}`);

  if (options.all) return writeAllPages(ctx, target.path, query);
  const api = await ctx.api();
  const response = await api.request({
    method,
    path: target.path,
    query,
    body,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    signal: ctx.signal,
  });
  await writeResponse(ctx, target.path, response, options.include === true);
}
