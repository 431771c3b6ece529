// Properties of the parts that turn service answers and user input into records, errors and lines
// of output, run in-process against fakes (thousands of cases a second):
//   - paginate() over a random collection and random per-page faults ends with exactly the
//     collection's records, or with an AppError — never a silent loss, never a raw Error;
//   - the envelope, error-body, Retry-After and JSON-depth readers accept anything without throwing
//     anything but their documented errors;
//   - reportError prints one `error:` line (+ one `hint:`), redacted, with a documented exit code;
//   - the redactor never lets a key through; csv/json/ndjson output of any record reads back.
import fc from 'fast-check';
import type { ApiRecord, PaginateSummary } from '../../../src/core/api-client.js';
import {
  AppError,
  AuthenticationError,
  ContractError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RejectedError,
  ServiceUnavailableError,
  UsageError,
} from '../../../src/core/errors.js';
import { exitCodeFor } from '../../../src/core/exit-codes.js';
import { parseCollectionPage } from '../../../src/core/http/envelope.js';
import { parseServiceError } from '../../../src/core/http/http-errors.js';
import { paginate } from '../../../src/core/http/paginate.js';
import { parseRetryAfter, RETRY_AFTER_CAP_MS } from '../../../src/core/http/retry.js';
import { jsonNestsDeeperThan } from '../../../src/core/http/response-body.js';
import { readRecordInput } from '../../../src/core/record-input/index.js';
import { SecretRedactor } from '../../../src/core/redact.js';
import { reportError } from '../../../src/core/report-error.js';
import { writeRecords } from '../../../src/output/index.js';
import { fakeContext } from '../../helpers/fake-context.js';
import { parseCsv } from '../../helpers/output-formats.js';
import { DOCUMENTED_EXIT_CODES } from '../../helpers/exit-shape.js';

export interface NamedProperty {
  name: string;
  property: () => fc.IRawProperty<unknown[], boolean>;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('');
const base62 = (length: number) =>
  fc.array(fc.constantFrom(...BASE62), { minLength: length, maxLength: length }).map((chars) => chars.join(''));
/** A key in the documented format: apk_<8>_<32>. */
export const apiKey = fc.tuple(base62(8), base62(32)).map(([prefix, secret]) => `apk_${prefix}_${secret}`);

/** Text of every kind: printable, any code point, control characters, JSON-ish. */
export const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('\n', '\r', '\t', ' ', '"', ',', '\\', '{', '}', '[', ']', ':', 'é', '\u2028', '\u0000', 'a') }),
  fc.json(),
);

// ---- paginate -------------------------------------------------------------------------------------

type PageFault =
  'none' | 'duplicate' | 'drop-item' | 'wrong-page' | 'missing-id' | 'total-up' | 'network' | 'delete-before' | 'insert-before' | 'append';

const pageFault = fc.constantFrom<PageFault>(
  'none',
  'none',
  'none',
  'duplicate',
  'drop-item',
  'wrong-page',
  'missing-id',
  'total-up',
  'network',
  'delete-before',
  'insert-before',
  'append',
);

function paginateProperty(): fc.IRawProperty<unknown[], boolean> {
  return fc.asyncProperty(
    fc.record({
      size: fc.integer({ min: 0, max: 120 }),
      limit: fc.integer({ min: 1, max: 30 }),
      concurrency: fc.integer({ min: 1, max: 6 }),
      maxItems: fc.option(fc.integer({ min: 1, max: 150 }), { nil: undefined }),
      faults: fc.array(pageFault, { minLength: 1, maxLength: 12 }),
    }),
    async ({ size, limit, concurrency, maxItems, faults }) => {
      let next = 0;
      const records: ApiRecord[] = Array.from({ length: size }, () => ({ id: `r${next++}` }));
      const fetch = async (page: number, asked: number | undefined): Promise<unknown> => {
        await new Promise((resolve) => setImmediate(resolve));
        const pageSize = asked ?? limit;
        const fault = faults[(page - 1) % faults.length]!;
        if (fault === 'network') throw new NetworkError(`page ${page}: connection reset`);
        // Changes to the collection happen as this page is read (others may already be in flight).
        if (fault === 'delete-before' && records.length > 0) records.splice(0, 1);
        if (fault === 'insert-before') records.unshift({ id: `r${next++}` });
        if (fault === 'append') records.push({ id: `r${next++}` });
        let items: unknown[] = records.slice((page - 1) * pageSize, page * pageSize).map((r) => ({ ...r }));
        let total = records.length;
        if (fault === 'duplicate' && page > 1) items = [records[(page - 1) * pageSize - 1], ...items.slice(0, -1)];
        if (fault === 'drop-item' && items.length > 0) items = items.slice(1);
        if (fault === 'missing-id' && items.length > 0) items[0] = { name: 'no id' };
        if (fault === 'total-up') total += 1;
        const reportedPage = fault === 'wrong-page' ? page + 1 : page;
        return { items, pagination: { page: reportedPage, limit: pageSize, total, pages: Math.ceil(total / pageSize) } };
      };
      const seen: string[] = [];
      let summary: PaginateSummary | undefined;
      try {
        const generator = paginate((page, asked) => fetch(page, asked), '/api/things', { pageSize: limit, concurrency, maxItems });
        for (;;) {
          const step = await generator.next();
          if (step.done) {
            summary = step.value;
            break;
          }
          seen.push(step.value.id);
        }
      } catch (error) {
        // (b) a documented failure, never a raw Error.
        return error instanceof AppError && DOCUMENTED_EXIT_CODES.has(exitCodeFor(error));
      }
      // (a) no record twice, and exactly the collection (or its first maxItems) as it is now.
      if (new Set(seen).size !== seen.length) return false;
      if (summary === undefined) return false;
      const truth = records.map((r) => r.id);
      // Stopped at --max-items: a sample, not an export (no total to check it against).
      if (maxItems !== undefined && seen.length === maxItems) return true;
      return seen.length === truth.length && seen.every((id, i) => id === truth[i]);
    },
  );
}

// ---- readers of what the service sends -------------------------------------------------------------

function collectionEnvelopeProperty(): fc.IRawProperty<unknown[], boolean> {
  const envelopeish = fc.oneof(
    fc.jsonValue(),
    fc.record({
      items: fc.oneof(
        fc.array(fc.oneof(fc.jsonValue(), fc.record({ id: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }))),
        fc.jsonValue(),
      ),
      pagination: fc.oneof(
        fc.record({ page: fc.jsonValue(), limit: fc.jsonValue(), total: fc.jsonValue(), pages: fc.jsonValue() }),
        fc.record({ page: fc.integer(), limit: fc.integer(), total: fc.double(), pages: fc.integer() }),
        fc.jsonValue(),
      ),
    }),
  );
  return fc.property(envelopeish, (body) => {
    try {
      const page = parseCollectionPage(body, 'page 1 of /api/things');
      return Array.isArray(page.items) && page.items.every((item) => typeof item.id === 'string');
    } catch (error) {
      return error instanceof ContractError;
    }
  });
}

function serviceErrorProperty(): fc.IRawProperty<unknown[], boolean> {
  const body = fc.oneof(
    anyText,
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify({ error: v })),
  );
  const type = fc.option(fc.constantFrom('application/json', 'text/html', 'text/plain', 'application/problem+json', ''), {
    nil: undefined,
  });
  return fc.property(body, type, (text, contentType) => {
    const parsed = parseServiceError(text, contentType);
    const fields = [parsed.code, parsed.message, parsed.requestId].filter((v): v is string => v !== undefined);
    return fields.every((field) => !/[\r\n]/.test(field) && field.length <= 301);
  });
}

function retryAfterProperty(): fc.IRawProperty<unknown[], boolean> {
  const value = fc.oneof(
    anyText,
    fc.nat().map(String),
    fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
    fc.constantFrom('-5', '1e3', '  7 ', 'Infinity', 'NaN', '99999999999999999999'),
  );
  return fc.property(fc.option(value, { nil: undefined }), (header) => {
    const ms = parseRetryAfter(header);
    return ms === undefined || (Number.isInteger(ms) && ms >= 0 && ms <= RETRY_AFTER_CAP_MS);
  });
}

function depthOf(value: unknown): number {
  // Iterative: the values tested may be deep.
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current === 'object' && current !== null) {
      deepest = Math.max(deepest, depth + 1);
      for (const child of Object.values(current)) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

function jsonDepthProperty(): fc.IRawProperty<unknown[], boolean> {
  const nested = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.jsonValue(), fc.constantFrom('[', '{"a":')).map(([depth, inner, open]) => {
    const close = open === '[' ? ']' : '}';
    return `${open.repeat(depth)}${JSON.stringify(inner)}${close.repeat(depth)}`;
  });
  return fc.property(
    fc.oneof(fc.json(), nested),
    fc.integer({ min: 0, max: 45 }),
    (text, max) => jsonNestsDeeperThan(text, max) === depthOf(JSON.parse(text)) > max,
  );
}

// ---- what the CLI prints ------------------------------------------------------------------------------

const ERROR_CLASSES = [UsageError, NetworkError, ContractError, AppError] as const;

function reportErrorProperty(): fc.IRawProperty<unknown[], boolean> {
  const thrown = fc.oneof(
    fc.record({ kind: fc.constantFrom(0, 1, 2), message: anyText, hint: fc.option(anyText, { nil: undefined }) }),
    fc.record({ kind: fc.constant(3), status: fc.integer({ min: 400, max: 599 }), message: anyText }),
    fc.record({ kind: fc.constant(4), value: fc.anything() }),
  );
  return fc.property(thrown, apiKey, fc.boolean(), (spec, key, verbose) => {
    let error: unknown;
    const withKey = (text: string) => `${text} ${key} ${text}`;
    if (spec.kind === 3) {
      const classes = [AuthenticationError, PermissionError, NotFoundError, RejectedError, ServiceUnavailableError];
      const Class = classes[spec.status % classes.length]!;
      error = new Class(withKey(spec.message), { status: spec.status, method: 'GET', path: '/api/x' });
    } else if (spec.kind === 4) {
      error = spec.value;
    } else {
      const Class = ERROR_CLASSES[spec.kind] as unknown as new (message: string, details?: { hint?: string }) => Error;
      error = new Class(withKey(spec.message), { hint: spec.hint === undefined ? undefined : withKey(spec.hint) });
    }
    let out = '';
    const redactor = new SecretRedactor();
    redactor.register(key);
    const code = reportError(error, { write: (text: string) => (out += text) }, redactor, verbose);
    const lines = out.replace(/\n$/, '').split('\n');
    const unexpected = !(error instanceof AppError);
    if (out.includes(key.slice(13))) return false;
    if (!lines[0]!.startsWith('error: ')) return false;
    if (unexpected) return code === 1 && (verbose || lines.length === 2);
    if (lines.length > 2 || (lines.length === 2 && !lines[1]!.startsWith('hint: '))) return false;
    return DOCUMENTED_EXIT_CODES.has(code);
  });
}

function redactorProperty(): fc.IRawProperty<unknown[], boolean> {
  return fc.property(
    fc.array(fc.oneof(anyText, apiKey), { maxLength: 8 }),
    fc.array(apiKey, { minLength: 1, maxLength: 3 }),
    (parts, keys) => {
      const text = [...parts, ...keys].join(' ');
      const redacted = new SecretRedactor().redact(text);
      return keys.every((key) => !redacted.includes(key.slice(13)) && redacted.includes(key.slice(0, 12)));
    },
  );
}

/** Records as a service might send them: an id and any fields, nested, with awkward keys. */
const fieldName = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'a.b', 'toString', ''));
export const randomRecord = fc
  .tuple(fc.string({ minLength: 1, maxLength: 40 }), fc.dictionary(fieldName, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }))
  .map(([id, fields]) => {
    const record: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields))
      Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    record.id = id;
    return record as ApiRecord;
  });

function outputProperty(): fc.IRawProperty<unknown[], boolean> {
  return fc.asyncProperty(
    fc.array(randomRecord, { maxLength: 8 }),
    fc.constantFrom('json', 'ndjson', 'csv', 'table'),
    async (records, format) => {
      const { ctx, stdout } = fakeContext({ globals: { output: format as 'json' } });
      async function* source() {
        yield* records;
      }
      try {
        await writeRecords(ctx, source(), { label: 'things', columns: ['id', 'name'] });
      } catch {
        return false;
      }
      const text = stdout();
      switch (format) {
        case 'json':
          return (JSON.parse(text) as ApiRecord[]).map((r) => r.id).join('\n') === records.map((r) => r.id).join('\n');
        case 'ndjson':
          return (
            text
              .split('\n')
              .filter(Boolean)
              .map((line) => (JSON.parse(line) as ApiRecord).id)
              .join('\n') === records.map((r) => r.id).join('\n')
          );
        case 'csv': {
          // Every field is a column (the first record's, no schema here): find the id column by its header.
          const rows = parseCsv(text);
          const id = rows[0]?.indexOf('id') ?? -1;
          return (
            rows.length === records.length + 1 &&
            (records.length === 0 || id >= 0) &&
            rows.slice(1).every((row, i) => row[id] === records[i]!.id)
          );
        }
        default:
          return typeof text === 'string';
      }
    },
  );
}

function recordInputProperty(): fc.IRawProperty<unknown[], boolean> {
  const assignment = fc.tuple(fc.oneof(fieldName, fc.string({ maxLength: 30 })), anyText).map(([key, value]) => `${key}=${value}`);
  return fc.asyncProperty(
    fc.record({
      data: fc.option(
        fc.oneof(
          anyText,
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.constantFrom('-', '@', '@/nonexistent/x.json', '@.', '{}', '[]', 'null'),
        ),
        { nil: undefined },
      ),
      fields: fc.option(fc.array(fc.oneof(assignment, anyText), { maxLength: 4 }), { nil: undefined }),
      typedFields: fc.option(fc.array(fc.oneof(assignment, anyText), { maxLength: 4 }), { nil: undefined }),
      stdin: anyText,
    }),
    async ({ data, fields, typedFields, stdin }) => {
      const { ctx } = fakeContext({ stdinText: stdin, cwd: '/nonexistent-cwd' });
      try {
        const record = await readRecordInput(ctx, { data, fields, typedFields });
        return (
          typeof record === 'object' && record !== null && !Array.isArray(record) && Object.getPrototypeOf(record) === Object.prototype
        );
      } catch (error) {
        return error instanceof AppError && exitCodeFor(error) === 2;
      }
    },
  );
}

export const IN_PROCESS_PROPERTIES: NamedProperty[] = [
  { name: 'paginate: exactly the collection, or a documented error', property: paginateProperty },
  { name: 'collection envelope: a page of records with string ids, or ContractError', property: collectionEnvelopeProperty },
  { name: 'service error bodies: never a throw, one short line per field', property: serviceErrorProperty },
  { name: 'Retry-After: undefined or 0..60 s', property: retryAfterProperty },
  { name: 'JSON nesting depth: agrees with the parsed value', property: jsonDepthProperty },
  { name: 'reportError: one error line (+ hint), redacted, documented code', property: reportErrorProperty },
  { name: 'redactor: no key tail survives, the prefix does', property: redactorProperty },
  { name: 'output: any records in any format, read back in order', property: outputProperty },
  { name: '--data / -f / -F: a plain object, or a usage error (exit 2)', property: recordInputProperty },
];
