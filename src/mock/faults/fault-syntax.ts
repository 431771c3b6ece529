// The fault language of the `x-mock-fault` header and of queued faults:
//
//   status=503                      answer this status with the error body
//   status=429;retry-after=1        ... with Retry-After in seconds
//   status=429;retry-after=date     ... with Retry-After as an HTTP-date ~2 s ahead
//   reset                           destroy the connection before any header
//   reset-mid-body                  send the headers and part of the body, then destroy the connection
//   lost-answer                     handle the request (a create is committed), then destroy the connection before any header
//   hang                            never answer
//   delay=MS                        answer normally, MS milliseconds late
//   hold                            answer normally once released (POST /__mock/release, or the queue
//                                   is cleared or reset): a test acts while a request waits, on a
//                                   condition instead of a race against a delay
//   garbage                         200 with a body that is not JSON
//   truncate                        content-length promises more than is sent; then the connection ends
//   malformed-envelope[=items]      200 JSON without `pagination` (=items: `items` is not an array)
//   missing-id                      one record without `id`
//   wrong-page                      pagination.page differs from the page asked for
//   total-change                    pagination.total is one more than the real total
//   duplicate                       the previous page's last record repeated as this page's first item
//   schema-violation                one record's `updatedAt` is a number (breaks the published schema)

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: number | 'date' }
  | { kind: 'reset' }
  | { kind: 'reset-mid-body' }
  | { kind: 'lost-answer' }
  | { kind: 'hang' }
  | { kind: 'delay'; ms: number }
  | { kind: 'hold' }
  | { kind: 'garbage' }
  | { kind: 'truncate' }
  | { kind: 'malformed-envelope'; variant: 'no-pagination' | 'items-not-array' }
  | { kind: 'missing-id' }
  | { kind: 'wrong-page' }
  | { kind: 'total-change' }
  | { kind: 'duplicate' }
  | { kind: 'schema-violation' };

/**
 * Every fault once: whether it takes a value, and when it acts — `instead` of handling the request
 * (nothing changes), `before` it (then it runs normally), on the `transport` of the answer, `after`
 * the request was handled (the answer is lost), or on the `response` body. The names, the syntax
 * check and the pipeline (pipeline.ts) all read this table.
 */
const FAULTS = {
  status: { value: 'required', acts: 'instead' },
  reset: { value: 'none', acts: 'instead' },
  'reset-mid-body': { value: 'none', acts: 'transport' },
  'lost-answer': { value: 'none', acts: 'after' },
  hang: { value: 'none', acts: 'instead' },
  delay: { value: 'required', acts: 'before' },
  hold: { value: 'none', acts: 'before' },
  garbage: { value: 'none', acts: 'response' },
  truncate: { value: 'none', acts: 'transport' },
  'malformed-envelope': { value: 'optional', acts: 'response' },
  'missing-id': { value: 'none', acts: 'response' },
  'wrong-page': { value: 'none', acts: 'response' },
  'total-change': { value: 'none', acts: 'response' },
  duplicate: { value: 'none', acts: 'response' },
  'schema-violation': { value: 'none', acts: 'response' },
} as const satisfies Record<Fault['kind'], { value: 'none' | 'optional' | 'required'; acts: string }>;

type FaultName = keyof typeof FAULTS;

export const FAULT_NAMES = Object.keys(FAULTS) as readonly FaultName[];

const isFaultName = (name: string): name is FaultName => Object.hasOwn(FAULTS, name);

export class FaultSyntaxError extends Error {}

function parameters(parts: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of parts) {
    const [name, value = ''] = part.split('=', 2).map((s) => s.trim()) as [string, string?];
    map.set(name.toLowerCase(), value);
  }
  return map;
}

export function parseFault(text: string): Fault {
  const [head = '', ...rest] = text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  const [nameRaw, value] = head.split('=', 2).map((s) => s.trim()) as [string, string | undefined];
  const name = nameRaw.toLowerCase();
  const params = parameters(rest);
  const known = `known faults: ${FAULT_NAMES.join(', ')}`;
  if (name === 'status') {
    const status = Number(value);
    if (!value || !/^\d{3}$/.test(value) || status < 400 || status > 599)
      throw new FaultSyntaxError(`status=NNN needs a status between 400 and 599, got "${value ?? ''}"`);
    const retryAfter = params.get('retry-after');
    if (retryAfter === undefined) return { kind: 'status', status };
    if (retryAfter === 'date') return { kind: 'status', status, retryAfter: 'date' };
    if (!/^\d+$/.test(retryAfter)) throw new FaultSyntaxError(`retry-after must be whole seconds or "date", got "${retryAfter}"`);
    return { kind: 'status', status, retryAfter: Number(retryAfter) };
  }
  if (name === 'delay') {
    if (!value || !/^\d+$/.test(value) || Number(value) > 600_000)
      throw new FaultSyntaxError(`delay=MS needs milliseconds (at most 600000), got "${value ?? ''}"`);
    return { kind: 'delay', ms: Number(value) };
  }
  if (name === 'malformed-envelope') {
    if (value === undefined || value === '' || value === 'pagination') return { kind: 'malformed-envelope', variant: 'no-pagination' };
    if (value === 'items') return { kind: 'malformed-envelope', variant: 'items-not-array' };
    throw new FaultSyntaxError(`malformed-envelope takes no value or "items", got "${value}"`);
  }
  if (isFaultName(name) && FAULTS[name].value === 'none') {
    if (value !== undefined) throw new FaultSyntaxError(`fault ${name} takes no value`);
    return { kind: name } as Fault;
  }
  throw new FaultSyntaxError(`unknown fault "${text}"; ${known}`);
}

/** Faults that corrupt the answer's body (response-faults.ts). */
export function changesResponse(fault: Fault): boolean {
  return FAULTS[fault.kind].acts === 'response';
}
