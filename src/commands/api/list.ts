// `appraisal api --list`: the published operations, from the same document the check uses.
import type { Context } from '../../core/context.js';
import { loadPublishedContract } from './load-contract.js';
import { writeRecords, type View } from '../../output/index.js';

const VIEW: View = { label: 'operations', columns: ['method', 'path', 'operationId', 'summary'] };

export async function runList(ctx: Context, spec: string | undefined): Promise<void> {
  const { contract, source } = await loadPublishedContract(ctx, { spec });
  ctx.io.debug(`published operations from ${source}`);
  async function* operations() {
    for (const operation of contract.operations) {
      yield { method: operation.method, path: operation.path, operationId: operation.operationId ?? null, summary: operation.summary ?? null };
    }
  }
  await writeRecords(ctx, operations(), VIEW);
}
