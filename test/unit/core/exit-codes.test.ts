import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ContractError,
  InterruptedError,
  MissingCredentialError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RejectedError,
  SafetyError,
  ServiceUnavailableError,
  UnpublishedOperationError,
  UsageError,
} from '../../../src/core/errors.js';
import { exitCodeFor } from '../../../src/core/exit-codes.js';
import { reportError } from '../../../src/core/report-error.js';
import { SecretRedactor } from '../../../src/core/redact.js';

const http = { status: 0, method: 'GET', path: '/api/x' };

describe('exitCodeFor', () => {
  it.each([
    [new UsageError('x'), 2],
    [new NetworkError('x'), 3],
    [new AuthenticationError('x', { ...http, status: 401 }), 4],
    [new MissingCredentialError('x'), 4],
    [new PermissionError('x', { ...http, status: 403 }), 5],
    [new NotFoundError('x', { ...http, status: 404 }), 6],
    [new RejectedError('x', { ...http, status: 422 }), 7],
    [new ServiceUnavailableError('x', { ...http, status: 503 }), 8],
    [new ContractError('x'), 9],
    [new SafetyError('x'), 10],
    [new UnpublishedOperationError('x'), 12],
    [new InterruptedError(), 130],
    [new TypeError('boom'), 1],
    ['a string', 1],
  ])('%s -> %i', (error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });
});

describe('reportError', () => {
  it('prints one error line and a hint, redacting keys', () => {
    let out = '';
    const code = reportError(
      new UsageError('bad key apk_abcdEFGH_0123456789abcdefghijABCDEFGHIJ12\nsecond line', { hint: 'try again' }),
      { write: (text: string) => (out += text) },
      new SecretRedactor(),
      false,
    );
    expect(code).toBe(2);
    expect(out).toBe('error: bad key apk_abcdEFGH_… second line\nhint: try again\n');
  });

  it('reports an unexpected failure as a bug without a stack trace', () => {
    let out = '';
    const code = reportError(new TypeError('x is undefined'), { write: (t: string) => (out += t) }, new SecretRedactor(), false);
    expect(code).toBe(1);
    expect(out).toMatch(/^error: unexpected failure: x is undefined\nhint: this is a bug/);
    expect(out).not.toMatch(/\n\s+at /);
  });
});
