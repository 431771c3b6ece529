// `spec show` and `spec sync`: which description the CLI uses for this profile, from where, how old.
import type { Context } from '../../core/context.js';
import type { LoadedDescription } from '../../core/description/load.js';
import { writeRecord, type View } from '../../output/index.js';

const VIEW: View = { label: 'description', columns: ['source', 'kind', 'title', 'version', 'operations', 'fetchedAt', 'checkedAt'] };

export async function printDescription(ctx: Context, loaded: LoadedDescription): Promise<void> {
  const { contract } = loaded;
  await writeRecord(
    ctx,
    {
      id: loaded.source,
      source: loaded.source,
      kind: loaded.kind,
      title: contract.title ?? null,
      version: contract.version ?? null,
      openapi: contract.openapi ?? null,
      operations: contract.operations.length,
      fetchedAt: loaded.fetchedAt ?? null,
      checkedAt: loaded.checkedAt ?? null,
      etag: loaded.etag ?? null,
      fromCache: loaded.fromCache,
    },
    VIEW,
  );
}
