// --wait-ready 2m: before the checks, poll until the service answers an authenticated read over its
// transport (TLS outside local), with exponential backoff, so a deploy step can run smoke right after
// a rollout. 401/403 mean the service is up (the checks then say what is wrong with the key); only
// no answer, 429 and 5xx mean "not yet".
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../../../core/duration.js';
import { HttpError, NetworkError } from '../../../core/errors.js';
import { plural, type SmokeCheck } from './check.js';

const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 5_000;
const PATH = '/api/keys/current';

function notYet(error: unknown): boolean {
  if (error instanceof HttpError) return error.status === 429 || error.status >= 500;
  return error instanceof NetworkError;
}

export function waitReadyCheck(limitMs: number): SmokeCheck {
  return {
    name: 'ready',
    gate: 'the service was not ready',
    noBudget: true,
    request: () => ({ method: 'GET', path: PATH }),
    async run({ ctx, session, client }) {
      const deadline = performance.now() + limitMs;
      let wait = FIRST_WAIT_MS;
      for (let attempt = 1; ; attempt++) {
        try {
          const { status } = await (await client()).request({ method: 'GET', path: PATH, retry: false, signal: ctx.signal });
          return `answered HTTP ${status} after ${plural(attempt, 'attempt')}`;
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          if (error instanceof HttpError && !notYet(error)) return `answered HTTP ${error.status} after ${plural(attempt, 'attempt')}`;
          if (!notYet(error)) throw error;
          const left = deadline - performance.now();
          if (left <= 0) {
            throw new NetworkError(
              `${session.baseUrl} was not ready within ${formatDuration(limitMs)} (${plural(attempt, 'attempt')}; last: ${(error as Error).message})`,
              { hint: 'check that the deploy finished and the URL is right, or allow longer with --wait-ready', cause: error },
            );
          }
          ctx.io.debug(`smoke: not ready yet (${(error as Error).message}); trying again in ${formatDuration(Math.min(wait, left))}`);
          await sleep(Math.min(wait, left), undefined, { signal: ctx.signal });
          wait = Math.min(wait * 2, MAX_WAIT_MS);
        }
      }
    },
  };
}
