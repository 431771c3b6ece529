// The fault language of x-mock-fault and queued faults.
import { describe, expect, it } from 'vitest';
import { parseFault } from '../../src/mock/index.js';

describe('fault syntax', () => {
  it.each([
    ['status=503', { kind: 'status', status: 503 }],
    ['status=429;retry-after=1', { kind: 'status', status: 429, retryAfter: 1 }],
    [' status=429 ; retry-after=date ', { kind: 'status', status: 429, retryAfter: 'date' }],
    ['reset', { kind: 'reset' }],
    ['reset-mid-body', { kind: 'reset-mid-body' }],
    ['lost-answer', { kind: 'lost-answer' }],
    ['hang', { kind: 'hang' }],
    ['delay=1500', { kind: 'delay', ms: 1500 }],
    ['hold', { kind: 'hold' }],
    ['garbage', { kind: 'garbage' }],
    ['truncate', { kind: 'truncate' }],
    ['malformed-envelope', { kind: 'malformed-envelope', variant: 'no-pagination' }],
    ['malformed-envelope=items', { kind: 'malformed-envelope', variant: 'items-not-array' }],
    ['missing-id', { kind: 'missing-id' }],
    ['wrong-page', { kind: 'wrong-page' }],
    ['total-change', { kind: 'total-change' }],
    ['duplicate', { kind: 'duplicate' }],
  ])('parses %s', (text, fault) => {
    expect(parseFault(text)).toEqual(fault);
  });

  it.each([
    '',
    'boom',
    'status',
    'status=200',
    'status=abc',
    'status=429;retry-after=soon',
    'reset=1',
    'lost-answer=1',
    'delay=-5',
    'malformed-envelope=x',
  ])('refuses %j', (text) => {
    expect(() => parseFault(text)).toThrow();
  });
});
