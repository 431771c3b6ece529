// The one table from error class to exit code (CLI.md "Exit codes"). `help exit-codes` prints it.
import {
  AuthenticationError,
  ChildExitError,
  LeaseRevokeError,
  CancelledError,
  CheckpointMismatchError,
  ContractError,
  DeliveryError,
  FindingsError,
  ExpectationError,
  InterruptedError,
  LocalEnvironmentError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  OperationError,
  PermissionError,
  RejectedError,
  RowsNotImportedError,
  SafetyError,
  ServiceUnavailableError,
  UndeliveredEventsError,
  UnpublishedOperationError,
  UsageError,
} from './errors.js';

export const EXIT_OK = 0;
export const EXIT_UNEXPECTED = 1;

type ErrorClass = abstract new (...args: never[]) => Error;

export interface ExitCodeRow {
  code: number;
  meaning: string;
  classes: ErrorClass[];
}

export const EXIT_CODE_TABLE: readonly ExitCodeRow[] = [
  { code: 0, meaning: 'success', classes: [] },
  { code: 1, meaning: 'unexpected failure (a bug: the message asks for a report)', classes: [] },
  {
    code: 2,
    meaning: 'usage error: bad flag, argument or input file; also invalid input caught before any request',
    classes: [UsageError, LocalEnvironmentError],
  },
  { code: 3, meaning: 'network, TLS or timeout: the service could not be reached or did not answer', classes: [NetworkError] },
  {
    code: 4,
    meaning: '401 — credential missing, invalid, expired or revoked',
    classes: [AuthenticationError, MissingCredentialError],
  },
  { code: 5, meaning: '403 — authenticated but lacking permission, scope, organization or record access', classes: [PermissionError] },
  { code: 6, meaning: '404 — not found', classes: [NotFoundError] },
  { code: 7, meaning: '400/409/422 — the service rejected the request', classes: [RejectedError] },
  { code: 8, meaning: '429 or 5xx still failing after retries', classes: [ServiceUnavailableError] },
  {
    code: 9,
    meaning:
      "the response broke the contract (envelope or record shape), an export came back incomplete, a resumed export's checkpoint disagrees with its file, or a smoke expectation failed",
    classes: [ContractError, ExpectationError, CheckpointMismatchError],
  },
  { code: 10, meaning: 'refused for safety (production guard, credential/origin mismatch)', classes: [SafetyError] },
  { code: 11, meaning: 'cancelled at a prompt (answered no, or Ctrl-D): nothing was changed', classes: [CancelledError] },
  {
    code: 12,
    meaning: "the service's API description does not publish an operation the command needs (refused before any request)",
    classes: [UnpublishedOperationError],
  },
  {
    code: 20,
    meaning: 'findings: keys audit found one at --fail-on severity, keys scan found a live key, or doctor found a problem',
    classes: [FindingsError],
  },
  {
    code: 21,
    meaning: 'a key delivery (keys rotate --deliver) failed or timed out; the rotation was rolled back',
    classes: [DeliveryError],
  },
  {
    code: 22,
    meaning:
      'an import ended with rows not imported (invalid, a duplicate match value, refused by the service, or skipped); each is in its results file',
    classes: [RowsNotImportedError],
  },
  {
    code: 23,
    meaning: 'keys lease: the leased key could not be revoked after CMD ended (the line names its prefix and the command that revokes it)',
    classes: [LeaseRevokeError],
  },
  {
    code: 24,
    meaning:
      'watch --forward-to: an event could not be delivered (written to the dead-letter file), or the watch stopped: the receiver answered 410 Gone, or its TLS certificate was not accepted',
    classes: [UndeliveredEventsError],
  },
  { code: 130, meaning: 'interrupted (Ctrl-C)', classes: [InterruptedError] },
];

/** Said under the table by `help exit-codes`: the codes that are not the CLI's own. */
export const EXIT_CODE_NOTES: readonly string[] = [
  "keys lease -- CMD exits with CMD's own exit code (128+N when signal N ended it), unless the lease could not be revoked (23).",
];

export function exitCodeFor(error: unknown): number {
  // An operation's error exits as its cause would (the cause's row of this same table).
  if (error instanceof OperationError) return exitCodeFor(error.cause);
  // `keys lease -- CMD`: CMD's own code (EXIT_CODE_NOTES).
  if (error instanceof ChildExitError) return error.exitCode;
  for (const row of EXIT_CODE_TABLE) {
    if (row.classes.some((cls) => error instanceof cls)) return row.code;
  }
  return EXIT_UNEXPECTED;
}
