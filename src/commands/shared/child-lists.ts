// A collection listed per parent (contacts of every client), read as one stream for a run over
// families (`export`, `sync`): every parent id first (one paginate), then each parent's list with at
// most --concurrency lists in flight (one page each at a time, so no more requests at once than any
// other list makes), handed on in parent order. Each list keeps paginate's checks (count = total, no
// duplicates within it). What a parent removed mid-read or a record under two parents means is the
// caller's to decide (export fails or warns, sync keeps one row), so both are reported, not judged.
import type { ApiRecord, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { NotFoundError } from '../../core/errors.js';
import { listPath, parentFamily, type ResourceFamily } from '../../core/resources.js';

/** Any parent id: the published record schema of a child list is the same for every parent. */
export const ANY_PARENT = '00000000-0000-4000-8000-000000000000';

/** One parent's list, as the service gave it. */
export interface ParentList {
  parentId: string;
  records: ApiRecord[];
  /** `pagination.total` (the count read when the answer had none). */
  total: number;
  warnings: readonly string[];
  /** Set when the parent was removed after the ids were read (its list answered 404): records is empty. */
  removed?: NotFoundError;
}

/**
 * Every parent's list of `family` (a child family), in parent order; stops the lists in flight when
 * the caller stops, or when `signal` aborts (the run's, unless the caller has one of its own).
 */
export async function* parentLists(
  ctx: Context,
  family: ResourceFamily,
  query: Query,
  signal: AbortSignal = ctx.signal,
): AsyncGenerator<ParentList> {
  const api = await ctx.api();
  const { globals } = ctx;
  // Aborted when the caller stops early or fails: the lists still in flight stop too.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) controller.abort();
  const paging = { pageSize: globals.pageSize, allowPartial: globals.allowPartial, signal: controller.signal };

  const readParent = async (parentId: string): Promise<ParentList> => {
    const records: ApiRecord[] = [];
    try {
      const pages = api.paginate(listPath(family, parentId), { ...paging, query, concurrency: 1 });
      for (;;) {
        const step = await pages.next();
        if (step.done) return { parentId, records, total: step.value.total ?? records.length, warnings: step.value.warnings };
        records.push(step.value);
      }
    } catch (error) {
      if (error instanceof NotFoundError) return { parentId, records: [], total: 0, warnings: [], removed: error };
      throw error;
    }
  };

  try {
    const parentIds: string[] = [];
    for await (const parent of api.paginate(parentFamily(family)!.path, { ...paging, concurrency: globals.concurrency }))
      parentIds.push(parent.id);
    const inFlight: Array<Promise<ParentList>> = [];
    let next = 0;
    for (let current = 0; current < parentIds.length; current++) {
      while (next < parentIds.length && next < current + Math.max(1, globals.concurrency)) {
        const reading = readParent(parentIds[next++]!);
        // Lists read ahead may fail before they are awaited.
        reading.catch(() => undefined);
        inFlight.push(reading);
      }
      yield await inFlight.shift()!;
    }
  } finally {
    controller.abort();
    signal.removeEventListener('abort', onAbort);
  }
}
