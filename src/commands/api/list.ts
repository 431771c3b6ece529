// `appraisal api --list`: the published operations, from the same description every command binds to.
import type { Context } from '../../core/context.js';
import { loadDescription } from '../../core/description/load.js';
import { writeRecords, type View } from '../../output/index.js';

const VIEW: View = { label: 'operations', singular: 'operation', columns: ['method', 'path', 'operationId', 'summary'] };

export async function runList(ctx: Context): Promise<void> {
  const { contract, source } = await loadDescription(ctx);
  ctx.io.debug(`published operations from ${source}`);
  async function* operations() {
    for (const operation of contract.operations) {
      yield {
        method: operation.method,
        path: operation.path,
        operationId: operation.operationId ?? null,
        summary: operation.summary ?? null,
      };
    }
  }
  await writeRecords(ctx, operations(), VIEW);
}
