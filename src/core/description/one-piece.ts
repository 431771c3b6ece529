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

function label(operation: PublishedOperation): string {
  return `${operation.method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`;
}

/** The query parameters the paging options become for a one-piece list, or a UsageError naming the operation. */
export function onePieceQuery(operation: PublishedOperation, asked: PagingAsked): Query {
  const published = queryParameterNames(operation);
  const refuse = (flag: string, why: string, hint: string) =>
    new UsageError(`${flag}: ${label(operation)} answers its whole list in one piece (its published answer is not paged)${why}`, { hint });
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
