// `--ttl`: how long the leased key lives at most, the backstop when nothing else revokes it (the CLI
// killed with -9, the machine gone). At least a minute — a shorter one would expire under a job
// still starting — and at most a day: a lease is for one job, not a standing credential.
import { parseDuration } from '../../../core/duration.js';
import { UsageError } from '../../../core/errors.js';

export const MIN_TTL_MS = 60_000;
export const MAX_TTL_MS = 24 * 3_600_000;

export function parseTtl(raw: string | undefined): number {
  if (raw === undefined) {
    throw new UsageError('keys lease needs --ttl DURATION (e.g. --ttl 30m): the key expires then even if it is never revoked');
  }
  return parseDuration(raw, '--ttl', { minMs: MIN_TTL_MS, maxMs: MAX_TTL_MS });
}
