// Contacts are listed per client: read every client id (one paginate), then each client's contacts
// with at most --concurrency clients' lists in flight (one page each at a time, so no more requests
// at once than any other list makes), written in client order. Each client's list keeps paginate's
// checks (count = total, no duplicates); a contact listed under two clients is dropped once and
// fails the export like any duplicate (unless --allow-partial).
import type { ApiRecord, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { ContractError, NotFoundError } from '../../core/errors.js';
import { IdSet } from '../../core/http/id-set.js';
import { listPath, parentFamily, type ResourceFamily } from '../../core/resources.js';
import { createProgress, writeRecords, type FilePart } from '../../output/index.js';
import { publishedView } from '../shared/list-records.js';

/** Any client id: the published record schema of a client's contacts is the same for every client. */
const ANY_CLIENT = '00000000-0000-4000-8000-000000000000';

interface ClientContacts {
  records: ApiRecord[];
  total: number;
  warnings: string[];
}

async function clientIds(ctx: Context, family: ResourceFamily, signal: AbortSignal): Promise<string[]> {
  const parent = parentFamily(family)!;
  const api = await ctx.api();
  const ids: string[] = [];
  const pages = api.paginate(parent.path, {
    pageSize: ctx.globals.pageSize,
    concurrency: ctx.globals.concurrency,
    allowPartial: ctx.globals.allowPartial,
    signal,
  });
  for await (const client of pages) ids.push(client.id);
  return ids;
}

/** Written as `ctx.output` plans it: the family's file, or its numbered parts (--split-rows, --split-size). */
export async function exportContacts(
  ctx: Context,
  family: ResourceFamily,
  query: Query,
): Promise<{ written: number; total: number; warnings: string[]; files?: FilePart[] }> {
  const api = await ctx.api();
  const { globals } = ctx;
  // Aborted when the writer stops early or fails: the lists still in flight stop too.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const warnings: string[] = [];
  let total = 0;
  let duplicates = 0;
  let firstDuplicate: string | undefined;
  const progress = createProgress(ctx, family.view.label);

  const readClient = async (clientId: string): Promise<ClientContacts> => {
    const pages = api.paginate(listPath(family, clientId), {
      query,
      pageSize: globals.pageSize,
      concurrency: 1,
      allowPartial: globals.allowPartial,
      signal: controller.signal,
    });
    const records: ApiRecord[] = [];
    try {
      for (;;) {
        const step = await pages.next();
        if (step.done) return { records, total: step.value.total ?? records.length, warnings: step.value.warnings };
        records.push(step.value);
      }
    } catch (error) {
      // A client removed after the ids were read: the collection changed while it was read.
      if (error instanceof NotFoundError && globals.allowPartial) {
        return {
          records: [],
          total: 0,
          warnings: [`client ${clientId} was removed while its contacts were read (partial export allowed)`],
        };
      }
      throw error;
    }
  };

  async function* records(): AsyncGenerator<ApiRecord> {
    const ids = await clientIds(ctx, family, controller.signal);
    const seen = new IdSet();
    const inFlight: Array<Promise<ClientContacts>> = [];
    let next = 0;
    let written = 0;
    for (let current = 0; current < ids.length; current++) {
      while (next < ids.length && next < current + Math.max(1, globals.concurrency)) {
        const reading = readClient(ids[next++]!);
        // Lists read ahead may fail before they are awaited.
        reading.catch(() => undefined);
        inFlight.push(reading);
      }
      const client = await inFlight.shift()!;
      total += client.total;
      warnings.push(...client.warnings);
      for (const record of client.records) {
        if (!seen.add(record.id)) {
          duplicates++;
          firstDuplicate ??= `${record.id} under client ${ids[current]}`;
          continue;
        }
        written++;
        yield record;
      }
      progress.update(written, undefined);
    }
    // Checked before the file is finished: a failing family leaves no file.
    if (duplicates > 0) {
      const message = `dropped ${duplicates} contact(s) listed under two clients (first: ${firstDuplicate}): the collection changed while it was read`;
      if (!globals.allowPartial) throw new ContractError(message, { hint: 'run it again, or pass --allow-partial to accept it' });
      warnings.push(`${message} (partial export allowed)`);
    }
  }

  let written: number;
  let parts: FilePart[] | undefined;
  try {
    // A csv holds every published field, known before the first contact (issue 25 §1); Parquet types them.
    const view = await publishedView(ctx, listPath(family, ANY_CLIENT), family.view);
    const result = await writeRecords(ctx, records(), view);
    written = result.count;
    parts = result.files;
  } finally {
    progress.stop();
    controller.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }
  for (const warning of warnings) ctx.io.warn(warning);
  return { written, total, warnings, ...(parts ? { files: parts } : {}) };
}
