// A collection paged with the paging options of the command line (--page, --page-size, --max-items,
// --concurrency, --allow-partial): the source of every list (`<noun> list`, `api --all`). The pager
// sends nothing until its first record is asked for.
import type { ApiClient, ApiRecord, PaginateOptions, PaginateSummary, Query } from './api-client.js';
import type { GlobalOptions } from './global-options.js';

export type Pages = AsyncGenerator<ApiRecord, PaginateSummary, undefined>;

/** `extra`: a resumed export's start and page checkpoints, or --max-items taken off (a --query counts its results). */
export function pagesOf(
  api: ApiClient,
  globals: Pick<GlobalOptions, 'page' | 'pageSize' | 'maxItems' | 'concurrency' | 'allowPartial'>,
  signal: AbortSignal,
  path: string,
  query: Query,
  onProgress: (fetched: number, total: number | undefined) => void,
  extra: Pick<PaginateOptions, 'resume' | 'onPageDone' | 'maxItems'> = {},
): Pages {
  return api.paginate(path, {
    query,
    page: globals.page,
    pageSize: globals.pageSize,
    maxItems: globals.maxItems,
    concurrency: globals.concurrency,
    connectAhead: true,
    allowPartial: globals.allowPartial,
    signal,
    onProgress: ({ fetched, total }) => onProgress(fetched, total),
    ...extra,
  });
}
