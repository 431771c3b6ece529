// `appraisal watch <family>`: poll a collection and emit one NDJSON event per change. Thin: checks
// the flags, loads the state file, wires the API client, clock, sink and status line to the poller
// in this folder. The one-line summary is the registry's (commands/registry.ts).
import { isAbsolute, resolve } from 'node:path';
import type { Context } from '../../core/context.js';
import { InterruptedError, UsageError } from '../../core/errors.js';
import { requireUuid } from '../../core/ids.js';
import { systemClock } from './clock.js';
import { formatDuration, parseDuration } from '../../core/duration.js';
import { eventSink } from './events.js';
import { childEnvironment } from '../../core/child-env.js';
import { runChildCommand } from '../../core/child-command.js';
import { findWatchable, scopeOf, WATCH_CHOICES, WATCHABLE_NAMES } from './families.js';
import { runWatch } from './poller.js';
import { statusLine } from './progress.js';
import { fileStateStore, loadState, lockStateFile, newState } from './state.js';
import { requireTimestamp } from '../shared/query.js';
import { SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineNounCommand } from '../../core/verb.js';
import { forwardPlan, FORWARD_DEFAULTS, type ForwardFlags } from './forward/plan.js';
import { checkForwardFiles, startForwarding, type Forwarding } from './forward/start.js';
import { shownTarget } from './forward/target.js';
import { jsonShown } from '../../output/index.js';

interface WatchFlags extends ForwardFlags {
  interval: string;
  stateFile?: string;
  since?: string;
  emitExisting?: boolean;
  once?: boolean;
  maxPolls?: string;
  fullEvery: string;
  exec?: string;
  client?: string;
}

const MIN_INTERVAL_MS = 1_000;
const MAX_INTERVAL_MS = 7 * 24 * 3_600_000;

function count(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`${flag} must be a whole number of at least 1, got "${raw.slice(0, 40)}"`);
  }
  return Number(raw);
}

export async function watchRun(ctx: Context, [familyName]: string[], flags: WatchFlags): Promise<void> {
  const family = findWatchable(familyName ?? '');
  if (!family) throw new UsageError(`cannot watch "${familyName}": choose one of ${WATCHABLE_NAMES.join(', ')}`);
  let parentId: string | undefined;
  if (family.parent !== undefined) {
    const flag = `--${family.parent}`;
    const given = (flags as unknown as Record<string, string | undefined>)[family.parent];
    if (given === undefined)
      throw new UsageError(`watching ${family.label} needs ${flag} ID (${family.label} are listed per ${family.parent})`);
    parentId = requireUuid(given, flag);
  } else if (flags.client !== undefined) {
    throw new UsageError('--client applies only to `appraisal watch contacts`');
  }
  const intervalMs = parseDuration(flags.interval, '--interval', { minMs: MIN_INTERVAL_MS, maxMs: MAX_INTERVAL_MS });
  const fullEvery = count(flags.fullEvery, '--full-every')!;
  const maxPolls = count(flags.maxPolls, '--max-polls');
  const since = flags.since === undefined ? undefined : requireTimestamp(flags.since, '--since');
  if (since !== undefined && flags.emitExisting) throw new UsageError('--since and --emit-existing are alternatives: pass one');
  if (flags.once && maxPolls !== undefined) throw new UsageError('--once and --max-polls are alternatives: pass one');
  if (flags.once && flags.stateFile === undefined && since === undefined && !flags.emitExisting) {
    throw new UsageError('--once without --state-file can only record a baseline and forget it: it would never report a change', {
      hint: 'keep the place with --state-file PATH (cron, CI), or say what to report with --since ISO or --emit-existing',
    });
  }
  if (ctx.output.formatExplicit && ctx.output.format !== 'ndjson') {
    throw new UsageError('watch always writes NDJSON events; drop -o/--output');
  }

  const statePath =
    flags.stateFile === undefined ? undefined : isAbsolute(flags.stateFile) ? flags.stateFile : resolve(ctx.cwd, flags.stateFile);
  const scope = scopeOf(family, parentId);
  const plan = forwardPlan(flags, statePath, ctx.cwd, flags.exec);
  if (plan) checkForwardFiles(plan);
  // One watch per state file (overlapping cron runs would both run --exec for one event): exit 2 while held.
  const release = statePath === undefined ? undefined : await lockStateFile(statePath);
  try {
    const loaded = statePath === undefined ? undefined : await loadState(statePath, { family: family.name, scope });
    if (loaded && loaded.polls > 0 && (since !== undefined || flags.emitExisting)) {
      ctx.io.notice(`${since !== undefined ? '--since' : '--emit-existing'} applies to the first poll only: resuming from ${statePath}`);
    }
    const state = loaded ?? newState(family.name, scope);
    const api = await ctx.api();

    const status = statusLine(ctx.io.stderr, ctx.io.showProgress);
    const command = flags.exec;
    const sink = eventSink({
      stdout: ctx.io.stdout,
      signal: ctx.signal,
      stateFile: statePath,
      beforeWrite: () => status.clear(),
      shown: jsonShown(ctx),
      exec:
        command === undefined
          ? undefined
          : (event, line) => {
              status.clear();
              return runChildCommand({
                command,
                input: line,
                cwd: ctx.cwd,
                output: (text) => ctx.io.writeErr(text),
                signal: ctx.signal,
                env: childEnvironment(ctx.env, ctx.io.redactor, {
                  APPRAISAL_EVENT_TYPE: event.type,
                  APPRAISAL_EVENT_FAMILY: event.family,
                  APPRAISAL_EVENT_ID: event.id,
                }),
              });
            },
    });
    if (!flags.once) {
      ctx.io.notice(
        `watching ${family.label} every ${formatDuration(intervalMs)}${statePath ? ` (state file ${statePath})` : ''}${plan ? `, forwarding to ${shownTarget(plan.url)}` : ''}; Ctrl-C stops`,
      );
    }
    // --forward-to: a fatal delivery error (410 Gone, a file that cannot be written) stops the watch too.
    const stop = new AbortController();
    const signal = plan ? AbortSignal.any([ctx.signal, stop.signal]) : ctx.signal;
    let forwarding: Forwarding | undefined;
    try {
      if (plan) {
        forwarding = await startForwarding(ctx, plan, {
          family: family.name,
          scope,
          signal,
          stop: () => stop.abort(),
          // With --once the run ends with one summary (finish()).
          summariseEachPoll: !flags.once,
          beforeMessage: () => status.clear(),
        });
      }
      const store = statePath === undefined ? undefined : fileStateStore(statePath);
      await runWatch(
        state,
        {
          family,
          parentId,
          intervalMs,
          fullEvery,
          once: flags.once === true,
          maxPolls,
          baseline: { emitExisting: flags.emitExisting === true, since },
          pageSize: ctx.globals.pageSize,
          concurrency: ctx.globals.concurrency,
          savePerEvent: command !== undefined,
        },
        {
          api,
          clock: systemClock(() => ctx.now()),
          serviceTime: {
            now: () => ctx.serviceClock.now(),
            measure: () => ctx.serviceClock.measure(api, family.listPath(parentId), ctx.signal),
          },
          signal,
          sink: forwarding?.sink ?? sink,
          store: store && forwarding ? forwarding.store(store) : store,
          afterPoll: forwarding?.afterPoll,
          log: {
            warn: (message) => {
              status.clear();
              ctx.io.warn(message);
            },
            notice: (message) => {
              status.clear();
              ctx.io.notice(message);
            },
            debug: (message) => {
              if (!ctx.io.verbose) return;
              status.clear();
              ctx.io.debug(message);
            },
          },
          onStatus: (current) => status.show(current),
        },
      );
      await forwarding?.finish();
      if (forwarding?.fatal !== undefined) throw forwarding.fatal;
      if (ctx.signal.aborted) throw new InterruptedError();
    } catch (error) {
      if (forwarding?.fatal !== undefined) throw forwarding.fatal;
      throw error;
    } finally {
      status.clear();
      await forwarding?.close();
    }
  } finally {
    await release?.();
  }
}

const FORWARDING = 'Forwarding Options (docs/WATCH.md):';

const HOW_IT_WORKS = `
Events (one JSON object per line):
  {"type":"created"|"updated"|"deleted","family":"props","id":"…","record":{…},"observedAt":"…"}
  ("record": null when deleted), written once handled (by --exec, or delivered by --forward-to).

The first poll is a silent baseline unless --emit-existing or --since; later ones ask what changed since
the mark. 429, 5xx and network failures are waited out; 401/403 stop it (exit 4, 5); Ctrl-C saves and
exits 130. --forward-to: signed (Standard Webhooks), retried, kept in an outbox beside the state file
until delivered or dead-lettered; --once then exits 24 if one was dead-lettered. More: docs/WATCH.md`;

export default defineNounCommand<WatchFlags>({
  arguments: [{ name: 'family', description: 'what to watch', required: true, choices: WATCH_CHOICES }],
  options: [
    { flags: '--interval <duration>', description: 'minimum time between poll starts (at least 1s)', defaultValue: '60s' },
    { flags: '--state-file <path>', description: 'remember what was seen: restarts resume exactly' },
    { flags: '--since <timestamp>', description: 'first poll: emit changes since an ISO 8601 time' },
    { flags: '--emit-existing', description: 'first poll: emit every record as "created"' },
    { flags: '--once', description: 'poll once and exit (cron, CI)' },
    { flags: '--max-polls <n>', description: 'exit after N polls' },
    { flags: '--full-every <n>', description: 'read all every N polls to find deletions', defaultValue: '10' },
    {
      flags: '--exec <command>',
      description: 'run COMMAND (shell) per event, the event on its stdin; a failure stops before that event',
    },
    { flags: '--client <id>', description: 'the client whose contacts to watch' },
    // The global -o, which takes one value here.
    { flags: '-o, --output <format>', description: 'ndjson only: watch always writes NDJSON events' },
    { flags: '--forward-to <url>', description: 'POST each event to URL as a signed webhook', group: FORWARDING },
    {
      flags: '--forward-secret-file <path>',
      description: 'whsec_ secrets, one a line; made if missing (default: STATE-FILE.webhook-secret)',
      group: FORWARDING,
    },
    {
      flags: '--forward-timeout <duration>',
      description: `limit of one attempt (default: ${FORWARD_DEFAULTS.timeout})`,
      group: FORWARDING,
    },
    { flags: '--retry-for <duration>', description: `retry for this long (default: ${FORWARD_DEFAULTS.retryFor})`, group: FORWARDING },
    { flags: '--dead-letter <path>', description: 'undeliverable events (default: STATE-FILE.dead-letter.ndjson)', group: FORWARDING },
    { flags: '--forward-ca-file <path>', description: "a CA to trust for the receiver's certificate", group: FORWARDING },
    { flags: '--forward-concurrency <n>', description: "requests at once; a record's events stay in order", group: FORWARDING },
    { flags: '--redeliver', description: 'resend the dead letters first (file removed)', group: FORWARDING },
  ],
  takes: [...SERVICE_OPTIONS, 'output', 'pageSize', 'concurrency'],
  // The family is an argument: each run lists (and reads back) that family's records.
  calls: 'per-request',
  examples: [
    'appraisal watch props --state-file props.state --once >> props-events.ndjson   # cron / CI',
    "appraisal watch assignments --interval 5m --state-file assignments.state --exec './sync-assignment.sh'",
    'appraisal watch contacts --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 --interval 30s | jq -c \'select(.type=="deleted")\'',
    'appraisal watch props --since 2026-01-01T00:00:00Z --once   # what changed since then',
    'appraisal watch props --state-file props.state --forward-to https://hooks.example.com/appraisal --once',
    'appraisal watch props --state-file props.state --forward-to https://hooks.example.com/appraisal --once --redeliver   # the receiver is fixed',
  ],
  notes: HOW_IT_WORKS,
  run: watchRun,
});
