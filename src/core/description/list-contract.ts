// What the service's description says of one list, `GET path`, read once per list command
// (routed-client.ts listContractOf): what it may be asked (the query parameters it publishes, and
// for a list answered in one piece which paging options mean anything), the schema of its records
// (a csv's columns, a Parquet file's types) and a validator of them (--validate; ajv loaded only then).
//
// A list the service answers in one piece: its published response schema is a bare array or
// `{success, data: [...]}`, not the paged `{items, pagination}` ("the operation's own response schema
// decides"). Such a list has no pages of ours to pick or resume, so the paging options mean only what
// the description publishes: `--page N` is sent as its `page` query parameter and `--page-size N` as
// its `limit`, when the operation publishes them; otherwise they are refused before any request
// (never ignored, never emulated by slicing the answer). `--resume` is refused: there is no page to
// continue after. `--max-items` still stops after N records, as on every list.
import type { Query } from '../api-client.js';
import { UsageError } from '../errors.js';
import { queryParameterNames, type PublishedOperation } from './document.js';
import type { Binding } from './operation-binding.js';
import { recordColumns, recordSchemaOf } from './schema.js';
import type { Validator } from './validate.js';

export interface PagingAsked {
  page?: number | undefined;
  pageSize?: number | undefined;
  /** `--resume` (or a checkpoint to resume from). */
  resume?: boolean | undefined;
}

/** Whether the operation answers its list in one piece. */
export function answersInOnePiece(operation: PublishedOperation): boolean {
  return operation.envelope === 'data' || operation.envelope === 'array';
}

/** `GET /api/x (listX)`: an operation as messages name it. */
export function operationLabel(operation: PublishedOperation): string {
  return `${operation.method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`;
}

/** The query parameters the paging options become for a one-piece list, or a UsageError naming the operation. */
export function onePieceQuery(operation: PublishedOperation, asked: PagingAsked): Query {
  const published = queryParameterNames(operation);
  const refuse = (flag: string, why: string, hint: string) =>
    new UsageError(`${flag}: ${operationLabel(operation)} answers its whole list in one piece (its published answer is not paged)${why}`, {
      hint,
    });
  if (asked.resume)
    throw refuse('--resume', '; there is no page to continue after', 'run it again without --resume: the list comes in one answer');
  const query: Record<string, number> = {};
  const pairs: Array<[string, number | undefined, string]> = [
    ['--page', asked.page, 'page'],
    ['--page-size', asked.pageSize, 'limit'],
  ];
  for (const [flag, value, param] of pairs) {
    if (value === undefined) continue;
    if (!published.includes(param)) {
      throw refuse(
        flag,
        ` and publishes no "${param}" query parameter`,
        `drop ${flag}; --max-items N stops after N records${published.length > 0 ? `; published query parameters: ${published.join(', ')}` : ''}`,
      );
    }
    query[param] = value;
  }
  return query;
}

/** A published record schema with the document its $refs resolve in. */
export interface RecordSchema {
  document: Record<string, unknown>;
  schema: unknown;
}

export class ListContract {
  constructor(
    /** The operation the list is bound to, as the service publishes it. */
    readonly operation: PublishedOperation,
    private readonly binding: Binding,
  ) {}

  /** Whether the service answers this list in one piece (no pages to ask for: smoke reads it whole). */
  get onePiece(): boolean {
    return answersInOnePiece(this.operation);
  }

  /**
   * Refuse, before any request, what the description does not publish: paging options a one-piece
   * list cannot honour, and any query parameter it does not publish (`flagOf` names the flag given).
   */
  checkRequest(query: Query, paging: PagingAsked, flagOf: (param: string) => string): void {
    if (this.onePiece && (paging.page !== undefined || paging.pageSize !== undefined || paging.resume))
      onePieceQuery(this.operation, paging);
    const published = queryParameterNames(this.operation);
    for (const name of Object.keys(query)) {
      if (query[name] === undefined || published.includes(name)) continue;
      const list = published.filter((param) => param !== 'page' && param !== 'limit');
      throw new UsageError(
        `${flagOf(name)}: the service does not publish a query parameter "${name}" for ${operationLabel(this.operation)}`,
        {
          hint:
            list.length > 0
              ? `published query parameters: ${list.join(', ')} (use --param name=value)`
              : 'this operation publishes no filters',
        },
      );
    }
  }

  /** The schema of one record (a Parquet file's types); its columns with recordColumns(). */
  recordSchema(): RecordSchema {
    const document = this.binding.description.contract.document;
    return { document, schema: recordSchemaOf(document, this.operation.responseSchema, this.operation.envelope) };
  }

  /** A csv's columns: every published field, flattened, in schema order; undefined when it declares none. */
  recordColumns(): string[] | undefined {
    const { document, schema } = this.recordSchema();
    return recordColumns(document, schema);
  }

  /** The validator of its records (--validate): ajv is loaded and the schemas compiled only now. */
  validator(): Promise<Validator> {
    return this.binding.validator();
  }
}
