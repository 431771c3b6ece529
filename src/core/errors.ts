// The one error hierarchy. Every failure the CLI reports is one of these; the exit code for each
// class lives in exit-codes.ts and nowhere else, and report-error.ts is the one place that prints.

export interface ErrorDetails {
  /** A next step for the user, printed on its own line after the message. */
  hint?: string;
  cause?: unknown;
}

// Every class names itself: the bundle is minified, so a class's own name would not survive.
export abstract class AppError extends Error {
  readonly hint: string | undefined;
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.hint = details.hint;
  }
}

/** Bad flag, argument or input file; invalid input caught before any request. Exit 2. */
export class UsageError extends AppError {
  override readonly name: string = 'UsageError';
}

/** The service could not be reached, TLS failed, or it did not answer in time. Exit 3. */
export class NetworkError extends AppError {
  override readonly name: string = 'NetworkError';
}

/** A request the service answered with a non-2xx status. Subclasses pick the exit code. */
export interface HttpErrorInfo extends ErrorDetails {
  status: number;
  method: string;
  /** Path and query as sent, never containing a credential. */
  path: string;
  requestId?: string | undefined;
  serviceCode?: string | undefined;
  serviceMessage?: string | undefined;
  retryAfterMs?: number | undefined;
  /** The answer's Link header (RFC 8631 service-desc discovery reads it even on a 404). */
  link?: string | undefined;
}

export class HttpError extends AppError {
  override readonly name: string = 'HttpError';
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly serviceCode: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly link: string | undefined;
  constructor(message: string, info: HttpErrorInfo) {
    super(message, info);
    this.status = info.status;
    this.method = info.method;
    this.path = info.path;
    this.requestId = info.requestId;
    this.serviceCode = info.serviceCode;
    this.serviceMessage = info.serviceMessage;
    this.retryAfterMs = info.retryAfterMs;
    this.link = info.link;
  }
}

/** 401: credential missing, invalid, expired or revoked. Exit 4. */
export class AuthenticationError extends HttpError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: authenticated but lacking permission, scope, organization or record access. Exit 5. */
export class PermissionError extends HttpError {
  override readonly name: string = 'PermissionError';
}
/** 404. Exit 6. */
export class NotFoundError extends HttpError {
  override readonly name: string = 'NotFoundError';
}
/** 400/409/422 and other 4xx: the service rejected the request. Exit 7. */
export class RejectedError extends HttpError {
  override readonly name: string = 'RejectedError';
}
/** 429 or 5xx still failing after retries. Exit 8. */
export class ServiceUnavailableError extends HttpError {
  override readonly name: string = 'ServiceUnavailableError';
}

/**
 * No usable credential before any request was made (none configured, none readable).
 * Shares exit 4 with a 401: either way the fix is to log in or provide a key.
 */
export class MissingCredentialError extends AppError {
  override readonly name: string = 'MissingCredentialError';
}

/** The response broke the contract (envelope or record shape), or an export came back incomplete. Exit 9. */
export class ContractError extends AppError {
  override readonly name: string = 'ContractError';
}

/**
 * A 2xx answer whose body is not JSON at all (a web page, a proxy's notice): a ContractError (exit 9)
 * like any other, told apart so that description discovery can take it as "no description here".
 */
export class NotJsonError extends ContractError {
  override readonly name: string = 'NotJsonError';
}

/**
 * A resumed export's checkpoint disagrees with the file it vouches for (a page past the last, a byte
 * count in the middle of a record, a record count the file does not hold, a file shorter than the
 * bytes it records): forged or damaged, so the
 * resume is refused and the file kept as it is. Exit 9.
 */
export class CheckpointMismatchError extends AppError {
  override readonly name: string = 'CheckpointMismatchError';
}

/**
 * A check's own expectation was not met although the service answered (`smoke`: a latency budget,
 * an expected status or item count, a run whose checks proved nothing). Exit 9.
 */
export class ExpectationError extends AppError {
  override readonly name: string = 'ExpectationError';
}

/** Refused for safety: production guard, credential/origin mismatch. Exit 10. */
export class SafetyError extends AppError {
  override readonly name: string = 'SafetyError';
}

/**
 * The command needs an operation the service's published description does not contain: refused
 * before any request (a 404 would say "not found", which is not what happened). Exit 12.
 */
export class UnpublishedOperationError extends AppError {
  override readonly name: string = 'UnpublishedOperationError';
}

/** The user interrupted (Ctrl-C), or a supervisor stopped us (SIGTERM, SIGHUP, SIGQUIT). Exit 130. */
export class InterruptedError extends AppError {
  override readonly name: string = 'InterruptedError';
  /** The signal that stopped us, when one did: a child we run is passed the same one. */
  readonly signal: NodeJS.Signals | undefined;
  constructor(message = 'interrupted', signal?: NodeJS.Signals) {
    super(message);
    this.signal = signal;
  }
}

/** The user declined at a prompt (answered no, or Ctrl-D / end of input): nothing was changed. Exit 11. */
export class CancelledError extends AppError {
  override readonly name: string = 'CancelledError';
  constructor(message = 'cancelled; nothing was changed', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** A local operation the user asked for failed for a reason outside the service (e.g. a keychain
 *  that cannot be used, a file that cannot be written). Exit 2: the fix is on the user's side. */
export class LocalEnvironmentError extends AppError {
  override readonly name: string = 'LocalEnvironmentError';
}

/**
 * A check found what it looks for and the user asked for a non-zero exit: `keys audit --fail-on`
 * found a finding that severe, `keys scan` found a key the service says is live, `doctor` found a
 * problem (a warning or an error). Exit 20.
 */
export class FindingsError extends AppError {
  override readonly name: string = 'FindingsError';
}

/** A command the user gave to receive a key (`keys rotate --deliver CMD`) failed or timed out. Exit 21. */
export class DeliveryError extends AppError {
  override readonly name: string = 'DeliveryError';
}

/**
 * An import ran to its end, but some rows were not imported: invalid (unreadable, a duplicate match
 * value, a schema or enum violation), refused by the service, or skipped after --stop-after-errors.
 * Every row is reported in the results file before this is thrown. Exit 22.
 */
export class RowsNotImportedError extends AppError {
  override readonly name: string = 'RowsNotImportedError';
}

/**
 * `keys lease -- CMD`: the key leased for CMD could not be revoked when CMD ended (it still works
 * until it expires). The message names its prefix and the exact command that revokes it. Exit 23.
 */
export class LeaseRevokeError extends AppError {
  override readonly name: string = 'LeaseRevokeError';
}

/**
 * `watch --forward-to`: an event could not be delivered to the webhook receiver (it is in the
 * dead-letter file), or the watch stopped (the receiver answered 410 Gone, or its TLS certificate was not accepted). Exit 24.
 */
export class UndeliveredEventsError extends AppError {
  override readonly name: string = 'UndeliveredEventsError';
}

/**
 * `keys lease -- CMD`: CMD ended with a non-zero status, and the CLI exits with that status (128+N
 * when signal N ended it), as if CMD had been run directly. Not a row of the table: the code is CMD's.
 */
export class ChildExitError extends AppError {
  override readonly name: string = 'ChildExitError';
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * A failure told in the words of a larger operation (a key rotation that rolled back, say): the
 * message is the operation's, the exit code is its cause's — exit-codes.ts looks through to the
 * cause, so no second table of classes is kept anywhere. A cause outside the hierarchy (a bug)
 * keeps exit 1.
 */
export class OperationError extends AppError {
  override readonly name: string = 'OperationError';
  constructor(message: string, cause: unknown, hint?: string) {
    super(message, { cause, ...(hint === undefined ? {} : { hint }) });
  }
}
