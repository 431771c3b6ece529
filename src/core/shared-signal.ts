// Listening for an abort on a signal that many share: the run's Ctrl-C signal, a list's signal under
// its pages in flight, the parents' lists of a child family, the MCP server's tool calls. Each request
// in flight (and each one waiting to be sent again), and each tool call, listens while it lasts, up to
// --concurrency (at most 64) at once; Node counts more than 10 as a leak and printed a
// MaxListenersExceededWarning on stderr from `--concurrency 16` on (and from an assistant's 11th call
// at once). The ceiling is raised on the signal for that many, so a real leak (listeners never
// removed) still warns.
import { getMaxListeners, setMaxListeners } from 'node:events';

/** Requests in flight at most (--concurrency), and a few listeners of their callers'. */
const SHARED_SIGNAL_LISTENERS = 64 + 16;

/** Calls `onAbort` once when `signal` aborts; the function returned stops listening. */
export function listenForAbort(signal: AbortSignal, onAbort: () => void): () => void {
  if (getMaxListeners(signal) < SHARED_SIGNAL_LISTENERS) setMaxListeners(SHARED_SIGNAL_LISTENERS, signal);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
