// RFC 8631 on any answer, not just discovery's: when an answer of the service carries a
// `Link: <…>; rel="service-desc"` naming another description than the one this run uses (say the
// cached copy came from /api/openapi.json and the service now announces /api/v2/openapi.json), the
// cache remembers it and the next run asks there first, fresh copy or not (discover.ts). This run
// keeps the description it was bound to. The announced URL is fetched as discovery fetches: on the
// service's own origin through its client (the key only after a 401/403), on any other origin
// without any credential. A description the user named (--spec, --spec-url) is never replaced.
import type { Context } from '../context.js';
import { readCache, writeCache } from './cache.js';
import { serviceDescLink } from './fetch.js';

export async function rememberAnnounced(ctx: Context, link: string, answered: URL): Promise<void> {
  // Nothing loaded yet (discovery's own answers are discovery's business), or a named description.
  const inUse = ctx.description.inUse;
  if (!inUse) return;
  const target = serviceDescLink({ link }, answered);
  if (!target || target.href === inUse.url) return;
  // Links already handled in this run (on the context): a paged export sees the same header on every page.
  const seen = ctx.description.announced;
  if (seen.has(target.href)) return;
  seen.add(target.href);
  const entry = await readCache(ctx, inUse.baseUrl);
  // Only the copy this run used (another run may have replaced it meanwhile).
  if (!entry || entry.configured !== null || entry.announced === target.href) return;
  if ((entry.kind === 'service' ? entry.url : undefined) !== inUse.url) return;
  ctx.io.debug(
    `service-desc link: ${target.href} differs from the description in use (${inUse.url ?? 'the bundled model'}); the next run asks there`,
  );
  await writeCache(ctx, { ...entry, announced: target.href });
}
