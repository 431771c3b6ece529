// `spec show` and `spec sync`: which description the CLI uses for this profile, from where, how old.
import type { Context } from '../../core/context.js';
import type { LoadedDescription } from '../../core/description/load.js';
import { writeRecord, type View } from '../../output/index.js';

const VIEW: View = {
  label: 'description',
  singular: 'description',
  columns: ['source', 'kind', 'title', 'version', 'operations', 'fetchedAt', 'checkedAt'],
};

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

/** `spec sync`: what asking the service did, on stderr (the record goes to stdout as for `spec show`). */
export function reportSync(ctx: Context, loaded: LoadedDescription): void {
  const operations = `${loaded.contract.operations.length} operations`;
  if (loaded.kind === 'bundled') ctx.io.notice(`synced: the service publishes no description; using ${loaded.source} (${operations})`);
  else if (loaded.revalidated)
    ctx.io.notice(`synced: ${loaded.source} is unchanged since ${loaded.fetchedAt} (the service answered 304 Not Modified)`);
  else if (!loaded.fromCache)
    ctx.io.notice(`synced: ${/^https?:/i.test(loaded.source) ? 'downloaded' : 'read'} ${loaded.source} (${operations})`);
  // Otherwise the service could not be asked, and a warning already said which copy is used.
}
