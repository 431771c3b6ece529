// One `appraisal export` run: check everything local (flags, --dir, the previous manifest) before
// any request, bind the chosen families' operations, read the service's clock (the run's start and
// the incremental start are its times, incremental.ts), write each family into the hidden sibling
// directory (skipping those an interrupted run finished, with --resume), then the manifest, and
// rename the whole directory into place. A failure keeps what is finished for --resume.
import type { Context } from '../../core/context.js';
import { holdRunLock } from '../../core/file-lock.js';
import { formatIdentity } from '../../core/output-plan.js';
import { countOf } from '../../output/index.js';
import { join } from 'node:path';
import { bindFamilies } from '../shared/family-lists.js';
import { exportFamily, fileName } from './family-file.js';
import { parentFamily } from '../../core/resources.js';
import { readSinceStart, resolveIncremental, type ServiceTime } from './incremental.js';
import { fileDigest, MANIFEST_KIND, MANIFEST_VERSION, type FamilyEntry, type Incremental, type Manifest } from './manifest.js';
import { planExport, type ExportFlags, type ExportPlan } from './plan.js';
import { checkTarget, SnapshotDir, type FamilyDone, type Target } from './snapshot-dir.js';
import type { FilePart } from '../../output/index.js';

/** A finished family's entry with the size and sha256 of what is on disk (each part's, when split). */
async function withDigests(snapshot: SnapshotDir, done: FamilyDone, path: string): Promise<FamilyEntry> {
  if (!done.parts) return { ...done, ...(await fileDigest(path)) };
  const parts: FilePart[] = [];
  for (const part of done.parts) parts.push({ file: part.file, records: part.records, ...(await fileDigest(snapshot.pathOf(part.file))) });
  return { ...done, parts, bytes: parts.reduce((sum, part) => sum + part.bytes, 0), sha256: null };
}

export async function runExport(ctx: Context, flags: ExportFlags): Promise<void> {
  const plan = planExport(ctx, flags);
  const session = await ctx.session();
  const origin = session.origin;
  const start = await readSinceStart(plan, origin);
  const target = await checkTarget(plan, { origin, profile: session.profileName });
  if (target.complete) {
    ctx.io.notice(
      `${plan.dirGiven} is already this snapshot, complete (finished ${target.complete.finishedAt}): nothing to resume, nothing written`,
    );
    return;
  }
  const names = plan.families.map((family) => family.name);
  await bindFamilies(ctx, `leave that family out with --families (this run asked for ${names.join(',')})`);
  // One run at a time per DIR: a second one would take the first one's partial directory for its own.
  const release = await holdRunLock(target.lock, {
    target: `--dir ${plan.dirGiven}`,
    busy: `another \`appraisal export\` to ${plan.dirGiven} is running`,
  });
  try {
    const time = await serviceTime(ctx, plan);
    const incremental = start ? resolveIncremental(ctx, plan, start, time) : null;
    await snapshotRun(ctx, plan, target, {
      origin,
      profile: session.profileName,
      environment: session.environment,
      names,
      incremental,
      time,
    });
  } finally {
    await release();
  }
}

/**
 * The service's time as the run begins, before any family is read: from an answer already seen, else
 * from one small GET of the first family's collection (core/service-clock.ts). A service that sends
 * no Date header leaves this machine's clock, said once.
 */
async function serviceTime(ctx: Context, plan: ExportPlan): Promise<ServiceTime> {
  const first = plan.families[0]!;
  const now = await ctx.serviceClock.measure(await ctx.api(), (parentFamily(first) ?? first).path, ctx.signal);
  if (now === undefined) {
    ctx.io.warn("the service's answers carry no Date header: this run's start is read from this machine's clock");
    return { now: ctx.now().getTime(), offsetMs: undefined };
  }
  return { now, offsetMs: ctx.serviceClock.offsetMs };
}

interface RunSession {
  origin: string;
  profile: string;
  environment: string;
  names: string[];
  incremental: Incremental | null;
  time: ServiceTime;
}

async function snapshotRun(ctx: Context, plan: ExportPlan, target: Target, run: RunSession): Promise<void> {
  const { origin, names, incremental } = run;
  const watermark = incremental?.watermark ?? null;
  const snapshot = await SnapshotDir.open(
    ctx,
    plan,
    target,
    {
      origin,
      profile: run.profile,
      format: formatIdentity(plan.format, plan.csv),
      families: names,
      pageSize: ctx.globals.pageSize ?? null,
      watermark,
      split: plan.split ? { rows: plan.split.rows ?? null, bytes: plan.split.bytes ?? null } : null,
      fields: Object.keys(plan.fields).length > 0 ? plan.fields : null,
    },
    run.time,
  );
  if (incremental)
    ctx.io.notice(`Exporting records updated since ${incremental.watermark} (${incremental.since} less ${incremental.overlap} overlap)`);

  const entries: FamilyEntry[] = [];
  try {
    for (const family of plan.families) {
      const file = fileName(family, plan.format);
      const path = snapshot.pathOf(file);
      let entry = plan.mode === 'resume' ? await snapshot.finished(ctx, family.name, file) : undefined;
      if (entry === undefined) {
        const done = await exportFamily(ctx, {
          family,
          file,
          path,
          shown: join(plan.dirGiven, file),
          format: plan.format,
          fields: plan.fields[family.name],
          watermark,
          resume: plan.mode === 'resume',
          split: plan.split,
        });
        entry = await withDigests(snapshot, done, path);
        await snapshot.markFinished(entry);
      }
      entries.push(entry);
    }
  } catch (error) {
    if (await snapshot.hasProgress()) {
      ctx.io.notice(
        `${plan.dirGiven} was not created; what was exported is kept in ${snapshot.temp}: run the same command with --resume to continue`,
      );
    } else {
      await snapshot.discard();
    }
    throw error;
  }

  const manifest: Manifest = {
    kind: MANIFEST_KIND,
    version: MANIFEST_VERSION,
    cliVersion: ctx.version,
    origin,
    profile: run.profile,
    environment: run.environment,
    format: plan.format,
    ...(plan.format === 'csv' ? { csv: plan.csv } : {}),
    startedAt: snapshot.startedAt,
    serviceStartedAt: snapshot.serviceStartedAt,
    finishedAt: ctx.now().toISOString(),
    incremental,
    families: entries,
  };
  await snapshot.complete(manifest);
  const records = entries.reduce((sum, entry) => sum + entry.records, 0);
  ctx.io.notice(
    `Wrote a snapshot of ${entries.map((entry) => countOf(entry.records, plan.families.find((family) => family.name === entry.family)!.view)).join(', ')} (${countOf(records, { label: 'records', singular: 'record' })}) to ${plan.dirGiven}`,
  );
}
