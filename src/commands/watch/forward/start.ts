// watch --forward-to, put together: the secrets, the outbox, the dead-letter file, the client (made by
// the context: no API key near it) and the forwarder; what the poller is handed instead of printing
// (a sink that appends to the outbox) and around its state saves (the outbox made durable first).
import type { Context } from '../../../core/context.js';
import type { OutboundClient } from '../../../core/http/outbound.js';
import { formatDuration } from '../../../core/duration.js';
import { readCaFile } from '../../../core/ca-file.js';
import { UndeliveredEventsError, UsageError } from '../../../core/errors.js';
import type { EventSink } from '../events.js';
import { writeLine } from '../events.js';
import type { StateStore } from '../state.js';
import { deadLetterFile } from './dead-letter.js';
import { Forwarder } from './forwarder.js';
import { Outbox, type OutboxEntry } from './outbox.js';
import type { ForwardPlan } from './plan.js';
import { checkDeadLetters, redeliverDeadLetters, type Redelivery } from './redeliver.js';
import { loadSecrets } from './secrets.js';
import { webhookId } from './signature.js';
import { shownTarget } from './target.js';
import { jsonShown } from '../../../output/index.js';

export interface Forwarding {
  /** The poller's sink: the event goes to the outbox (its line is printed once delivered). */
  sink: EventSink;
  /** The state store, with the outbox made durable before each save. */
  store(inner: StateStore): StateStore;
  /** After each poll: the one-line summary. */
  afterPoll(): void;
  /** --once / --max-polls: wait until everything is delivered or dead-lettered; exit 24 if any was dead-lettered. */
  finish(): Promise<void>;
  /** The forwarder's fatal error (410, a file that cannot be written), if any. */
  readonly fatal: unknown;
  close(): Promise<void>;
}

export interface ForwardingOptions {
  family: string;
  scope: string | null;
  /** Aborted on Ctrl-C and by a fatal forwarding error (stop() aborts it). */
  signal: AbortSignal;
  stop(): void;
  /** Say the summary after every poll (else only when the run ends). */
  summariseEachPoll: boolean;
  /** Clears the terminal's status line before a line on stderr, or on stdout (a terminal shows both). */
  beforeMessage(): void;
}

const CA_HINT = 'pass a readable PEM certificate with --forward-ca-file PATH';

function describe(body: string, entry: OutboxEntry): string {
  try {
    const event = JSON.parse(body) as { type?: string; family?: string; id?: string };
    return `${event.type} ${event.family} ${event.id} (${entry.id})`;
  } catch {
    return entry.id;
  }
}

function redeliveryNotice({ requeued, waiting }: Redelivery, path: string): string {
  if (requeued + waiting === 0) return `no dead letters to redeliver in ${path}`;
  const already = waiting > 0 ? ` (${waiting} of them waited in the outbox already)` : '';
  return `redelivering ${requeued + waiting} dead-lettered event(s) from ${path}${already}; the file is removed`;
}

/**
 * What can be checked of the plan's files without creating any, before the run lock and the secret
 * file are made: the --forward-ca-file (readable, a PEM certificate). Read once more when the client
 * is made; reading it twice costs ~0.1 ms.
 */
export function checkForwardFiles(plan: ForwardPlan): void {
  if (plan.caFile === undefined) return;
  try {
    readCaFile(plan.caFile, CA_HINT);
  } catch (error) {
    // The shared reader's hint for a file that is not PEM names no flag; this one came with ours.
    if (error instanceof UsageError) throw new UsageError(error.message, { hint: CA_HINT });
    throw error;
  }
}

export async function startForwarding(ctx: Context, plan: ForwardPlan, options: ForwardingOptions): Promise<Forwarding> {
  const say = (write: () => void) => {
    options.beforeMessage();
    write();
  };
  // A dead-letter file --redeliver would refuse is refused before the secret file is made.
  if (plan.redeliver) await checkDeadLetters(plan.deadLetterPath, options.family);
  const secrets = await loadSecrets(
    { file: plan.secretFile, env: ctx.env.APPRAISAL_WEBHOOK_SECRET, named: plan.secretFileNamed },
    ctx.io,
    (path) =>
      say(() =>
        ctx.io.warn(`created ${path} with a new webhook secret (mode 600): give its contents to the receiver to verify signatures`),
      ),
  );
  const outbox = await Outbox.open(plan.outboxPath);
  const earlier = outbox.count;
  let redelivery: Redelivery | undefined;
  let client: OutboundClient;
  try {
    redelivery = plan.redeliver ? await redeliverDeadLetters(outbox, plan.deadLetterPath, options.family) : undefined;
    client = await ctx.outbound({ caFile: plan.caFile, timeoutMs: plan.timeoutMs, caFlag: '--forward-ca-file' });
  } catch (error) {
    // Nothing is the caller's to close yet (a dead-letter file that is not one, a CA file that is not PEM).
    await outbox.close();
    throw error;
  }
  const deadLetters = deadLetterFile(plan.deadLetterPath);
  const target = shownTarget(plan.url);
  let warnedFailing = false;
  const forwarder = new Forwarder({
    outbox,
    deadLetters,
    client,
    url: plan.url,
    keys: secrets.keys,
    retryForMs: plan.retryForMs,
    concurrency: plan.concurrency,
    now: () => ctx.now().getTime(),
    signal: options.signal,
    report: {
      delivered: (entry, body, status) => {
        if (ctx.io.verbose) say(() => ctx.io.debug(`delivered ${describe(body, entry)}: ${status} after ${entry.attempts} attempt(s)`));
      },
      retrying: (entry, why, delayMs) => {
        if (ctx.io.verbose) say(() => ctx.io.debug(`attempt ${entry.attempts} of ${entry.id} failed (${why}); next in ${delayMs} ms`));
        // Once a run, at any verbosity: a --once run may wait out --retry-for, saying nothing till then.
        if (warnedFailing) return;
        warnedFailing = true;
        say(() =>
          ctx.io.warn(
            `delivering to ${target} failed (${why}): retrying each event for up to ${formatDuration(plan.retryForMs)} (--retry-for); they wait in ${plan.outboxPath}`,
          ),
        );
      },
      deadLettered: (entry, body, why) => {
        if (ctx.io.verbose) say(() => ctx.io.debug(`dead-lettered ${describe(body, entry)}: ${why} after ${entry.attempts} attempt(s)`));
        say(() => ctx.io.warnOnce('dead-letter', `events ${target} does not take are written to ${plan.deadLetterPath}`));
      },
    },
    print: (lines) => {
      // On a terminal the status line (stderr) shares the screen: erased first, or the line follows it.
      options.beforeMessage();
      return writeLine(ctx.io.stdout, jsonShown(ctx)(lines), options.signal);
    },
    onFatal: () => options.stop(),
  });
  if (earlier > 0) say(() => ctx.io.notice(`${earlier} event(s) from an earlier run wait in ${plan.outboxPath}: delivering them first`));
  if (redelivery) say(() => ctx.io.notice(redeliveryNotice(redelivery, plan.deadLetterPath)));
  forwarder.start();

  const summarise = () => {
    const line = forwarder.summary();
    if (line !== undefined) say(() => ctx.io.notice(line));
  };
  return {
    sink: async (event, change) => {
      const body = JSON.stringify(event);
      const id = webhookId({
        family: options.family,
        scope: options.scope,
        id: event.id,
        type: event.type,
        version: change?.version ?? '',
        poll: change?.poll ?? 0,
      });
      forwarder.enqueue(id, event.id, body);
      // A page's events come in one burst (100 of them: ~10 ms of this thread). One at a time, with the
      // event loop turning in between, the receiver's answers are read and the next request is sent
      // while the poll goes on, instead of the receiver waiting for the whole page. Two turns: undici
      // sends a request from an immediate, which then goes before the next event's work.
      await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    },
    store: (inner) => ({
      path: inner.path,
      save: async (state) => {
        await outbox.flush(true);
        await inner.save(state);
        await outbox.stateSaved();
      },
    }),
    afterPoll: () => {
      if (options.summariseEachPoll) summarise();
    },
    async finish() {
      await forwarder.drain();
      if (forwarder.fatal !== undefined || options.signal.aborted) return;
      summarise();
      const count = forwarder.deadLetteredInRun;
      if (count > 0) {
        throw new UndeliveredEventsError(`${count} event(s) could not be delivered to ${target}: they are in ${plan.deadLetterPath}`, {
          hint: 'each line holds the event, the last status or error and the attempts; fix the receiver, then run again with --redeliver',
        });
      }
    },
    get fatal() {
      return forwarder.fatal;
    },
    async close() {
      await forwarder.stop();
      await outbox.close();
      await deadLetters.close();
      await client.close();
    },
  };
}
