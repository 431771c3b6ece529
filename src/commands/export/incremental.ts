// Incremental runs: the watermark is the previous run's *start* (its manifest's startedAt, or
// --since) minus --overlap, so a record changed while the previous run was reading is read again
// rather than lost; each family that publishes `updatedSince` is asked only for records updated at
// or after it, and one that does not is exported in full (its manifest entry says why).
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { formatDuration } from '../../core/duration.js';
import { UPDATED_SINCE } from '../../core/resources.js';
import { readManifest, type Incremental } from './manifest.js';
import type { ExportPlan } from './plan.js';

/** The incremental part of the manifest, or null for a full snapshot. */
export async function resolveIncremental(plan: ExportPlan, origin: string): Promise<Incremental | null> {
  const since = plan.since;
  if (since === undefined) return null;
  let start: string;
  if (since.kind === 'since-last') {
    const previous = await readManifest(since.dir, since.given);
    if (previous.origin !== origin) {
      throw new UsageError(`--since-last ${since.given} is a snapshot of ${previous.origin}, this run reads ${origin}`, {
        hint: 'an incremental run continues a snapshot of the same service; run a full export first',
      });
    }
    start = previous.startedAt;
  } else {
    start = new Date(Date.parse(since.at)).toISOString();
  }
  const watermark = new Date(Date.parse(start) - plan.overlapMs).toISOString();
  return {
    sinceLast: since.kind === 'since-last' ? since.given : null,
    since: start,
    overlap: formatDuration(plan.overlapMs),
    watermark,
  };
}

/**
 * Whether the operation `GET path` is bound to publishes `updatedSince`, with how it is published
 * for the manifest's note. Read from the service's description, not from our model: a service
 * may publish less.
 */
export async function updatedSincePublished(ctx: Context, path: string): Promise<{ published: boolean; operation: string }> {
  const { bindingOf } = await import('../../core/description/routed-client.js');
  const { queryParameterNames } = await import('../../core/description/document.js');
  const route = bindingOf(await ctx.api())?.route('GET', path);
  if (!route) return { published: false, operation: `GET ${path}` };
  const { published } = route.bound;
  return {
    published: queryParameterNames(published).includes(UPDATED_SINCE.param),
    operation: `GET ${published.path}${published.operationId ? ` (${published.operationId})` : ''}`,
  };
}
