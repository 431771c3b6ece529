// The one error type handlers throw. The pipeline turns it into the error body
// `{error: {code, message, requestId}}` (plus `details` for validation failures).

export interface FieldProblem {
  field: string;
  message: string;
}

export interface HttpErrorExtras {
  headers?: Record<string, string>;
  details?: FieldProblem[];
}

const CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** The UPPER_SNAKE code the mock uses for a status when nothing more specific applies. */
export function codeForStatus(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'SERVER_ERROR' : 'CLIENT_ERROR');
}

export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extras: HttpErrorExtras = {},
  ) {
    super(message);
    this.name = 'MockHttpError';
  }
}

export function notFound(what: string, id: string): MockHttpError {
  return new MockHttpError(404, 'NOT_FOUND', `no ${what} with id ${id}`);
}

export function validationFailed(problems: FieldProblem[]): MockHttpError {
  const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return new MockHttpError(422, 'VALIDATION_FAILED', `invalid request: ${message}`, { details: problems });
}

export function invalidParameter(name: string, message: string): MockHttpError {
  return new MockHttpError(422, 'INVALID_PARAMETER', `query parameter ${name}: ${message}`, { details: [{ field: name, message }] });
}
