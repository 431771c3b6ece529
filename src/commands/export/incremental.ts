// Incremental runs: the watermark is the previous run's *start* (its manifest's serviceStartedAt, or
// --since) minus --overlap, so a record changed while the previous run was reading is read again
// rather than lost; each family that publishes `updatedSince` is asked only for records updated at
// or after it, and one that does not is exported in full (its manifest entry says why).
// Every time here is the service's (issue 26 §13): `updatedAt` is stamped by its clock, so a start
// read from this machine's clock skipped changes whenever the service ran behind. A manifest written
// before serviceStartedAt existed has only startedAt (this machine's clock): it is moved by the skew
// measured now. A start later than the service's clock is refused (exit 2): an incremental run from
// it would export nothing and say so with exit 0. A skew larger than --overlap is warned about.
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { formatDuration } from '../../core/duration.js';
import { UPDATED_SINCE } from '../../core/resources.js';
import { describeOffset, FUTURE_TOLERANCE_MS } from '../../core/service-clock.js';
import { readManifest, type Incremental } from './manifest.js';
import type { ExportPlan } from './plan.js';

/** Where an incremental run starts, as read before any request. */
export interface SinceStart {
  /** What the start came from, for messages: `--since-last base` or `--since`. */
  source: string;
  /** ISO 8601. */
  at: string;
  /** 'local': a manifest's startedAt from before serviceStartedAt existed (this machine's clock). */
  clock: 'service' | 'local';
}

/** The service's clock as this run measured it (run.ts). */
export interface ServiceTime {
  /** The service's time when the run began (ms). */
  now: number;
  /** The service's time minus this machine's (ms); undefined when it sends no Date header. */
  offsetMs: number | undefined;
}

/** The start named by --since-last (its manifest, checked) or --since; null for a full snapshot. No request. */
export async function readSinceStart(plan: ExportPlan, origin: string): Promise<SinceStart | null> {
  const since = plan.since;
  if (since === undefined) return null;
  if (since.kind === 'since') return { source: '--since', at: new Date(Date.parse(since.at)).toISOString(), clock: 'service' };
  const previous = await readManifest(since.dir, since.given);
  if (previous.origin !== origin) {
    throw new UsageError(`--since-last ${since.given} is a snapshot of ${previous.origin}, this run reads ${origin}`, {
      hint: 'an incremental run continues a snapshot of the same service; run a full export first',
    });
  }
  const source = `--since-last ${since.given}`;
  if (previous.serviceStartedAt !== undefined) return { source, at: previous.serviceStartedAt, clock: 'service' };
  return { source, at: previous.startedAt, clock: 'local' };
}

const MINUTE_MS = 60_000;
// The Date header has whole seconds and is written before the answer travels: with both clocks in
// step a reading is up to a second behind (every run with --overlap 0 warned "1s behind"). A skew
// within that resolution is not one the reading can show, so it is never warned about.
const DATE_RESOLUTION_MS = 1_000;

/**
 * The incremental part of the manifest, in the service's time: a start from this machine's clock
 * moved by the measured skew (rounded down to the minute, so a resumed run computes the same one),
 * refused when later than the service's clock, warned about when the skew exceeds --overlap.
 */
export function resolveIncremental(ctx: Context, plan: ExportPlan, start: SinceStart, time: ServiceTime): Incremental {
  let startMs = Date.parse(start.at);
  if (start.clock === 'local' && time.offsetMs !== undefined) {
    startMs = Math.floor((startMs + time.offsetMs) / MINUTE_MS) * MINUTE_MS;
    ctx.io.notice(
      `${start.source}: its manifest has no serviceStartedAt (an older appraisal); its startedAt ${start.at}, by this machine's clock, is taken as ${new Date(startMs).toISOString()} by the service's`,
    );
  }
  const since = new Date(startMs).toISOString();
  if (startMs > time.now + FUTURE_TOLERANCE_MS) {
    const what =
      start.source === '--since' ? `--since ${since}` : `${start.source}: its manifest says the previous run started ${since}, which`;
    throw new UsageError(
      `${what} is later than the service's clock (now ${new Date(time.now).toISOString()}): an incremental run from it would miss every change since the real start`,
      {
        hint:
          start.source === '--since'
            ? "give a time in the past, by the service's clock"
            : 'the manifest is damaged or was written by a wrong clock: run a full export (without --since-last), or give the start with --since ISO',
      },
    );
  }
  if (time.offsetMs !== undefined && Math.abs(time.offsetMs) > Math.max(plan.overlapMs, DATE_RESOLUTION_MS)) {
    ctx.io.warn(
      `the service's clock is ${describeOffset(time.offsetMs)} this machine's (more than --overlap ${plan.overlapGiven}): the watermark is in the service's time, from its Date header; \`appraisal doctor\` checks the clocks`,
    );
  }
  return {
    sinceLast: plan.since?.kind === 'since-last' ? plan.since.given : null,
    since,
    overlap: formatDuration(plan.overlapMs),
    watermark: new Date(startMs - plan.overlapMs).toISOString(),
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
