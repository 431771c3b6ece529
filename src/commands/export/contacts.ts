// Contacts are listed per client (shared/child-lists.ts reads every client's list, --concurrency at a
// time, in client order). A contact listed under two clients is dropped once and fails the export like
// any duplicate, and a client removed while its contacts were read fails it too (unless --allow-partial).
import type { ApiRecord, Query } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { ContractError } from '../../core/errors.js';
import { IdSet } from '../../core/http/id-set.js';
import { listPath, type ResourceFamily } from '../../core/resources.js';
import { createProgress, writeRecords, type FilePart } from '../../output/index.js';
import { publishedView } from '../shared/list-records.js';
import { ANY_PARENT, parentLists } from '../shared/child-lists.js';

/** Written as `ctx.output` plans it: the family's file, or its numbered parts (--split-rows, --split-size). */
export async function exportContacts(
  ctx: Context,
  family: ResourceFamily,
  query: Query,
): Promise<{ written: number; total: number; warnings: string[]; files?: FilePart[] }> {
  const { globals } = ctx;
  const warnings: string[] = [];
  let total = 0;
  let duplicates = 0;
  let firstDuplicate: string | undefined;
  const progress = createProgress(ctx, family.view.label);

  async function* records(): AsyncGenerator<ApiRecord> {
    const seen = new IdSet();
    let written = 0;
    for await (const client of parentLists(ctx, family, query)) {
      if (client.removed) {
        // A client removed after the ids were read: the collection changed while it was read.
        if (!globals.allowPartial) throw client.removed;
        warnings.push(`client ${client.parentId} was removed while its contacts were read (accepted with --allow-partial)`);
        continue;
      }
      total += client.total;
      warnings.push(...client.warnings);
      for (const record of client.records) {
        if (!seen.add(record.id)) {
          duplicates++;
          firstDuplicate ??= `${record.id} under client ${client.parentId}`;
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
      warnings.push(`${message} (accepted with --allow-partial)`);
    }
  }

  let written: number;
  let parts: FilePart[] | undefined;
  try {
    // A csv holds every published field, known before the first contact (issue 25 §1); Parquet types them.
    const { listContractOf } = await import('../../core/description/routed-client.js');
    const view = publishedView(ctx.output, listContractOf(await ctx.api(), listPath(family, ANY_PARENT)), family.view);
    const result = await writeRecords(ctx, records(), view);
    written = result.count;
    parts = result.files;
  } finally {
    progress.stop();
  }
  for (const warning of warnings) ctx.io.warn(warning);
  return { written, total, warnings, ...(parts ? { files: parts } : {}) };
}
