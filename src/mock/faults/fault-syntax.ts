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

export const FAULT_NAMES = [
  'status',
  'reset',
  'reset-mid-body',
  'lost-answer',
  'hang',
  'delay',
  'hold',
  'garbage',
  'truncate',
  'malformed-envelope',
  'missing-id',
  'wrong-page',
  'total-change',
  'duplicate',
  'schema-violation',
] as const;

const SIMPLE = new Set([
  'reset',
  'reset-mid-body',
  'lost-answer',
  'hang',
  'hold',
  'garbage',
  'truncate',
  'missing-id',
  'wrong-page',
  'total-change',
  'duplicate',
  'schema-violation',
]);

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
  if (SIMPLE.has(name)) {
    if (value !== undefined) throw new FaultSyntaxError(`fault ${name} takes no value`);
    return { kind: name } as Fault;
  }
  throw new FaultSyntaxError(`unknown fault "${text}"; ${known}`);
}

/** Faults that replace the whole answer, so the request is never handled. */
export function preventsHandling(fault: Fault): boolean {
  return fault.kind === 'status' || fault.kind === 'reset' || fault.kind === 'hang';
}
