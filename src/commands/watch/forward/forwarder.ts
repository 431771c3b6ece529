// Delivery of the outbox's events to the webhook receiver, running beside the polls: in order, one
// request in flight (or --forward-concurrency of them, never two of one record at once nor out of
// order), each signed afresh at its attempt, retried on the schedule of schedule.ts, marked done in
// the outbox once delivered or dead-lettered. A 410 Gone, a TLS failure (stop.ts), or a file that
// cannot be written, is fatal: onFatal stops the watch, and what was not delivered stays in the
// outbox for the next run.
//
// Between an answer and the next request only what the next request needs is done: the outbox's new
// lines, the delivered events' lines on stdout and the signature of the event after it are done while
// the receiver handles that request (writeSoon). A request to a receiver on this machine takes
// ~0.5 ms; these take ~0.1 ms.
import type { OutboundClient } from '../../../core/http/outbound.js';
import type { DeadLetterFile } from './dead-letter.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { describeAnswer, retryDelay, verdictOf } from './schedule.js';
import { Signer } from './signature.js';
import { stopFor } from './stop.js';

export interface ForwardReport {
  delivered(entry: OutboxEntry, body: string, status: number): void;
  retrying(entry: OutboxEntry, why: string, delayMs: number): void;
  deadLettered(entry: OutboxEntry, body: string, why: string): void;
}

export interface ForwarderDeps {
  outbox: Outbox;
  deadLetters: DeadLetterFile;
  client: OutboundClient;
  url: URL;
  keys: readonly Buffer[];
  retryForMs: number;
  concurrency: number;
  now(): number;
  random?: (() => number) | undefined;
  /** Aborted on Ctrl-C (and by onFatal): requests in flight are cut, their events stay in the outbox. */
  signal: AbortSignal;
  report: ForwardReport;
  /** The lines of delivered events (each body and a newline) on stdout; resolves once stdout took them. */
  print(lines: string): Promise<void>;
  onFatal(error: unknown): void;
}

export class Forwarder {
  /** Since the last summary. */
  private forwarded = 0;
  private deadLettered = 0;
  /** Why the latest failed attempt failed, for the summary: counts alone do not say why deliveries stall. */
  private lastFailure: string | undefined;
  /** In this run, for the exit code. */
  deadLetteredInRun = 0;
  fatal: unknown;
  private readonly inFlight = new Set<string>();
  private readonly notBefore = new Map<string, number>();
  private readonly retrying = new Set<string>();
  private readonly tasks = new Set<Promise<void>>();
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private idleWaiters: Array<() => void> = [];
  private running: Promise<void> | undefined;
  private readonly signer: Signer;
  /** Lines of delivered events not yet printed. */
  private unprinted: string[] = [];
  private writeScheduled = false;
  /** While stdout is full (a slow reader): no attempt starts until it drains. */
  private printing: Promise<void> | undefined;
  /** The first failed attempt since the receiver last answered, and when this run queued each event. */
  private failingSince: number | undefined;
  private readonly queuedAt = new Map<string, number>();
  private readonly startedAt: number;

  constructor(private readonly deps: ForwarderDeps) {
    this.signer = new Signer(deps.keys);
    this.startedAt = deps.now();
  }

  start(): void {
    this.running ??= this.run();
  }

  /** A new event (appended to the outbox unless that webhook-id waits already or was just done). */
  enqueue(id: string, key: string, body: string): void {
    if (!this.deps.outbox.add(id, key, body)) return;
    this.queuedAt.set(id, this.deps.now());
    // With every slot taken nothing could start: the attempt that ends wakes the loop.
    if (this.tasks.size < this.deps.concurrency) this.wake();
  }

  /** Resolves once nothing waits and nothing is in flight, or the forwarder stopped. */
  drain(): Promise<void> {
    if (this.idle() || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.wake();
    });
  }

  /** Stop sending; requests in flight end (cut by the signal when it is aborted). What was delivered is printed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.running;
    this.writeNow();
    await this.printing;
    this.releaseWaiters();
  }

  /**
   * `forwarded 3, retrying 1, dead-lettered 0` since the last summary, and while events are retried
   * the latest failure (`; last failure: 503`); undefined when nothing happened.
   */
  summary(): string | undefined {
    if (this.forwarded === 0 && this.deadLettered === 0 && this.retrying.size === 0) return undefined;
    const waiting = this.deps.outbox.count - this.retrying.size;
    const why = this.retrying.size > 0 && this.lastFailure !== undefined ? `; last failure: ${this.lastFailure}` : '';
    const line = `forwarded ${this.forwarded}, retrying ${this.retrying.size}, dead-lettered ${this.deadLettered}${waiting > 0 ? ` (${waiting} more waiting)` : ''}${why}`;
    this.forwarded = 0;
    this.deadLettered = 0;
    return line;
  }

  private idle(): boolean {
    return this.deps.outbox.count === 0 && this.tasks.size === 0 && !this.writeScheduled && this.printing === undefined;
  }

  private wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }

  private releaseWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private fail(error: unknown): void {
    if (this.fatal === undefined && !this.deps.signal.aborted) {
      this.fatal = error;
      this.deps.onFatal(error);
    }
    this.stopped = true;
    this.wake();
  }

  /**
   * writeNow, two turns of the event loop from now: undici sends a request from an immediate queued
   * when its attempt starts (after this one), so the work goes on while the receiver handles it.
   */
  private writeSoon(): void {
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    setImmediate(() => setImmediate(() => this.writeNow()));
  }

  /** The outbox's new lines to its file, the delivered events' lines to stdout, the next event signed. */
  private writeNow(): void {
    this.writeScheduled = false;
    this.deps.outbox.flush(false).catch((error: unknown) => this.fail(error));
    if (this.unprinted.length > 0) {
      const lines = this.unprinted.join('');
      this.unprinted = [];
      const printing: Promise<void> = this.deps.print(lines).then(
        () => {
          if (this.printing !== printing) return;
          this.printing = undefined;
          this.wake();
        },
        (error: unknown) => {
          this.printing = undefined;
          this.fail(error);
        },
      );
      this.printing = printing;
    }
    this.signAhead();
    if (this.idle()) this.releaseWaiters();
  }

  /** Sign the event that goes next: the first that waits, not in flight nor waiting for a retry. */
  private signAhead(): void {
    if (this.stopped) return;
    const now = this.deps.now();
    for (const entry of this.deps.outbox.entries()) {
      if (this.inFlight.has(entry.id)) continue;
      if (entry.body !== undefined && (this.notBefore.get(entry.id) ?? 0) <= now) this.signer.prepare(entry.id, now, entry.body);
      return;
    }
  }

  private async run(): Promise<void> {
    const { concurrency, signal } = this.deps;
    const onAbort = () => this.wake();
    signal.addEventListener('abort', onAbort, { once: true });
    while (!this.stopped && !signal.aborted) {
      const now = this.deps.now();
      let nextAt = Infinity;
      // Records with an earlier event still waiting: their later events wait behind it.
      const blocked = new Set<string>();
      for (const entry of this.deps.outbox.entries()) {
        if (this.tasks.size >= concurrency || this.printing !== undefined) break;
        const behind = blocked.has(entry.key);
        blocked.add(entry.key);
        const at = this.notBefore.get(entry.id) ?? 0;
        const ready = !behind && !this.inFlight.has(entry.id) && at <= now;
        if (!ready && !behind && !this.inFlight.has(entry.id)) nextAt = Math.min(nextAt, at);
        if (ready) this.launch(entry);
        // One at a time, in order: nothing passes the oldest event.
        else if (concurrency === 1) break;
      }
      if (this.idle()) this.releaseWaiters();
      // Until something changes: an event added, an attempt ended, a retry due, stdout drained, or Ctrl-C.
      await new Promise<void>((resolve) => {
        const timer = Number.isFinite(nextAt) ? setTimeout(() => this.wake(), Math.max(0, nextAt - now)) : undefined;
        this.wakeUp = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
    }
    signal.removeEventListener('abort', onAbort);
    await Promise.allSettled([...this.tasks]);
    this.releaseWaiters();
  }

  private launch(entry: OutboxEntry): void {
    this.inFlight.add(entry.id);
    const task: Promise<void> = this.attempt(entry)
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.inFlight.delete(entry.id);
        this.tasks.delete(task);
        this.wake();
      });
    this.tasks.add(task);
  }

  private async attempt(entry: OutboxEntry): Promise<void> {
    const { deps } = this;
    const body = entry.body ?? (await deps.outbox.body(entry));
    const at = deps.now();
    entry.firstAttemptAt ??= at;
    entry.attempts++;
    const answer = await deps.client.post(deps.url, body, this.signer.headers(entry.id, at, body), deps.signal);
    const verdict = verdictOf(answer);
    this.noteFailing(entry, at, verdict === 'retry');
    if (verdict === 'delivered') {
      this.unprinted.push(`${body}\n`);
      this.finish(entry);
      this.forwarded++;
      deps.report.delivered(entry, body, answer.kind === 'answer' ? answer.status : 0);
      return;
    }
    if (verdict === 'gone' || verdict === 'tls') throw stopFor(answer, deps.url, entry.id, deps.outbox.path);
    const why = describeAnswer(answer, deps.url);
    if (verdict === 'retry') {
      const retryAfter = answer.kind === 'answer' ? answer.retryAfterMs : undefined;
      const end = (entry.retryFrom ?? entry.firstAttemptAt) + deps.retryForMs;
      // The last backoff is cut to end with the window, so the event is given up only once it is spent:
      // given up a backoff early (up to 5 minutes), the events behind it shared the rest, a few attempts
      // each (17, 2, 1, 1 with --retry-for 8s), not one. A Retry-After past the end is honoured: none.
      const delay = Math.min(retryDelay(entry.attempts, retryAfter, deps.retryForMs, deps.random), retryAfter ?? end - at);
      if (at < end && at + delay <= end) {
        this.notBefore.set(entry.id, at + delay);
        this.retrying.add(entry.id);
        this.lastFailure = why;
        deps.outbox.tried(entry);
        this.writeSoon();
        deps.report.retrying(entry, why, delay);
        return;
      }
    }
    const error = verdict === 'retry' ? `${why} (still failing when --retry-for ran out)` : why;
    await deps.deadLetters.write(
      {
        webhookId: entry.id,
        status: answer.kind === 'answer' ? answer.status : null,
        error,
        attempts: entry.attempts,
        firstAttemptAt: new Date(entry.firstAttemptAt).toISOString(),
        deadLetteredAt: new Date(deps.now()).toISOString(),
      },
      body,
    );
    this.finish(entry);
    this.deadLettered++;
    this.deadLetteredInRun++;
    deps.report.deadLettered(entry, body, error);
  }

  /**
   * An event that waited behind a receiver already failing was waiting on it: its --retry-for window
   * opens when it was both queued and the receiver failing (events already waiting at the start count
   * from the start), not at its own first attempt. Else a receiver down longer than the window
   * dead-lettered one event per window: --once --retry-for 3s with 100 events waiting took 300 s.
   */
  private noteFailing(entry: OutboxEntry, at: number, failed: boolean): void {
    if (!failed) {
      // It answered (delivered, or refused this one event): it is up.
      this.failingSince = undefined;
      return;
    }
    if (entry.attempts === 1) {
      const from = Math.max(Math.min(this.failingSince ?? at, at), this.queuedAt.get(entry.id) ?? this.startedAt);
      if (from < at) entry.retryFrom = from;
    }
    this.failingSince ??= at;
  }

  private finish(entry: OutboxEntry): void {
    this.notBefore.delete(entry.id);
    this.queuedAt.delete(entry.id);
    this.retrying.delete(entry.id);
    this.deps.outbox.done(entry);
    this.writeSoon();
  }
}
