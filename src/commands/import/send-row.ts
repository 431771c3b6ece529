// Sending one planned row. A PATCH is idempotent: the client retries it like any safe request. A POST
// is never resent blindly: after an answer that may hide a committed create (5xx, a lost connection,
// an answer that is not JSON) the row's match value is looked up among the records changed since it
// was sent; found, it was created (no second POST); not found, it is sent again after the backoff.
// A 429 means "not processed": wait as asked (Retry-After) and send again. Without --match there is
// nothing to look up: the row is reported as an unconfirmed create, not sent twice. A 401/403 ends
// the whole run (every other row would fail the same way); any other refusal fails only the row.
import type { ApiClient, ApiRecord } from '../../core/api-client.js';
import {
  AuthenticationError,
  ContractError,
  HttpError,
  InterruptedError,
  NetworkError,
  PermissionError,
  ServiceUnavailableError,
} from '../../core/errors.js';
import { RETRYABLE_STATUSES, retryDelay, sleep } from '../../core/http/retry.js';
import { listPath, recordPath, type ResourceFamily } from '../../core/resources.js';
import type { FamilyReader } from './family-records.js';
import type { ImportJournal } from './journal.js';
import type { RowResult } from './row-result.js';
import type { RowPlan } from './row-result.js';

/** How far before the request the lost-answer lookup starts: clocks of client and service differ. */
const CLOCK_MARGIN_MS = 5 * 60_000;

export interface SenderOptions {
  api: ApiClient;
  family: ResourceFamily;
  reader: FamilyReader;
  journal: ImportJournal | undefined;
  /** Creates journal a `sent` line first (no --match: only the journal can tell they were sent). */
  journalSends: boolean;
  /** The key of a service record, to find a create whose answer was lost; undefined without --match. */
  keyOf: ((record: ApiRecord) => string | undefined) | undefined;
  signal: AbortSignal;
  now: () => Date;
  /** The command that lists what a lost create may have made. */
  checkCommand: (since: Date) => string;
}

type CreatePlan = Extract<RowPlan, { kind: 'create' }>;
type UpdatePlan = Extract<RowPlan, { kind: 'update' }>;

function fatal(error: unknown): boolean {
  return error instanceof AuthenticationError || error instanceof PermissionError || error instanceof InterruptedError;
}

/** May the create have landed although no answer said so? */
function mayHaveLanded(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500;
  return error instanceof NetworkError || error instanceof ContractError;
}

function idOf(body: unknown): string | undefined {
  const id = (body as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class RowSender {
  constructor(private readonly options: SenderOptions) {}

  async update(plan: UpdatePlan): Promise<RowResult> {
    const { api, family, journal } = this.options;
    try {
      await api.request({ method: 'PATCH', path: recordPath(family, plan.id), body: plan.body, retry: true, signal: this.options.signal });
    } catch (error) {
      if (fatal(error)) throw error;
      return { row: plan.row, status: 'failed', id: plan.id, error: `the service refused the update: ${reason(error)}`, toFix: true };
    }
    await journal?.record(plan.row, 'updated', plan.id);
    return { row: plan.row, status: 'updated', id: plan.id, error: undefined, toFix: false };
  }

  async create(plan: CreatePlan): Promise<RowResult> {
    // Sent again as the client sends a safe request again: its --retries and backoff.
    const { api, family, journal, signal } = this.options;
    const policy = api.retryPolicy;
    const path = family.parent ? listPath(family, plan.parentId) : family.path;
    if (this.options.journalSends) await journal?.record(plan.row, 'sent');
    let lastError: unknown;
    for (let attempt = 1; attempt <= policy.retries + 1; attempt++) {
      const sentAt = this.options.now();
      try {
        const id = idOf(await api.send('POST', path, plan.body));
        if (id === undefined) throw new ContractError(`POST ${path}: the answer is not a record with a string id`);
        await journal?.record(plan.row, 'created', id);
        return { row: plan.row, status: 'created', id, error: undefined, toFix: false };
      } catch (error) {
        if (fatal(error)) throw error;
        lastError = error;
        const tooMany = error instanceof HttpError && error.status === 429;
        if (!tooMany && !mayHaveLanded(error)) {
          return { row: plan.row, status: 'failed', id: undefined, error: `the service refused it: ${reason(error)}`, toFix: true };
        }
        if (!tooMany) {
          if (this.options.keyOf === undefined || plan.key === undefined) {
            const since = new Date(sentAt.getTime() - CLOCK_MARGIN_MS);
            return {
              row: plan.row,
              status: 'failed',
              id: undefined,
              error: `create unconfirmed (${reason(error)}): it may exist; check with \`${this.options.checkCommand(since)}\` before importing this row again`,
              toFix: false,
            };
          }
          let found: string | undefined;
          try {
            found = await this.lookUp(plan, sentAt);
          } catch (lookupError) {
            if (fatal(lookupError)) throw lookupError;
            const since = new Date(sentAt.getTime() - CLOCK_MARGIN_MS);
            return {
              row: plan.row,
              status: 'failed',
              id: undefined,
              error: `create unconfirmed (${reason(error)}; the look-up failed: ${reason(lookupError)}): check with \`${this.options.checkCommand(since)}\``,
              toFix: false,
            };
          }
          if (found !== undefined) {
            await journal?.record(plan.row, 'created', found);
            return { row: plan.row, status: 'created', id: found, error: undefined, toFix: false };
          }
        }
        if (attempt > policy.retries) break;
        const retryable = tooMany || !(error instanceof HttpError) || RETRYABLE_STATUSES.has(error.status) || error.status >= 500;
        if (!retryable) break;
        const after = error instanceof HttpError ? error.retryAfterMs : undefined;
        await sleep(retryDelay(attempt, policy, after), [signal]);
      }
    }
    const unavailable = lastError instanceof ServiceUnavailableError || lastError instanceof NetworkError;
    return {
      row: plan.row,
      status: 'failed',
      id: undefined,
      error: `${unavailable ? 'not created (checked: it did not land)' : 'not created'}: ${reason(lastError)}`,
      toFix: true,
    };
  }

  /** The id of the record the row's create made, if it landed after all. */
  private async lookUp(plan: CreatePlan, sentAt: Date): Promise<string | undefined> {
    const since = new Date(sentAt.getTime() - CLOCK_MARGIN_MS);
    for await (const record of this.options.reader.changedSince(since, plan.parentId, this.options.signal)) {
      if (this.options.keyOf!(record) === plan.key) return record.id;
    }
    return undefined;
  }
}
