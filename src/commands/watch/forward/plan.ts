// watch's --forward-* flags, checked before anything is read or sent: what to forward to, how long
// to try, where the secrets, the outbox and the dead letters live. Files default to names beside the
// state file, which --forward-to requires (delivery state lives beside it).
import { isAbsolute, resolve } from 'node:path';
import { parseDuration } from '../../../core/duration.js';
import { UsageError } from '../../../core/errors.js';
import { parseForwardTarget } from './target.js';

export interface ForwardFlags {
  forwardTo?: string;
  forwardSecretFile?: string;
  forwardTimeout?: string;
  retryFor?: string;
  deadLetter?: string;
  forwardCaFile?: string;
  forwardConcurrency?: string;
  redeliver?: boolean;
}

export interface ForwardPlan {
  url: URL;
  secretFile: string;
  /** The file was named (else the default beside the state file, used only without APPRAISAL_WEBHOOK_SECRET). */
  secretFileNamed: boolean;
  timeoutMs: number;
  retryForMs: number;
  deadLetterPath: string;
  outboxPath: string;
  caFile: string | undefined;
  concurrency: number;
  /** Put the dead letters back into the outbox before the first poll. */
  redeliver: boolean;
}

export const FORWARD_DEFAULTS = { timeout: '10s', retryFor: '24h' } as const;

const DEPENDENT: ReadonlyArray<[keyof ForwardFlags, string]> = [
  ['forwardSecretFile', '--forward-secret-file'],
  ['forwardTimeout', '--forward-timeout'],
  ['retryFor', '--retry-for'],
  ['deadLetter', '--dead-letter'],
  ['forwardCaFile', '--forward-ca-file'],
  ['forwardConcurrency', '--forward-concurrency'],
  ['redeliver', '--redeliver'],
];

const MAX_CONCURRENCY = 64;

/** The plan, or undefined without --forward-to (then no other --forward-* flag may be given). */
export function forwardPlan(
  flags: ForwardFlags,
  statePath: string | undefined,
  cwd: string,
  exec: string | undefined,
): ForwardPlan | undefined {
  if (flags.forwardTo === undefined) {
    const stray = DEPENDENT.find(([key]) => flags[key] !== undefined);
    if (stray) throw new UsageError(`${stray[1]} applies only with --forward-to URL`);
    return undefined;
  }
  const url = parseForwardTarget(flags.forwardTo);
  if (statePath === undefined) {
    throw new UsageError('--forward-to needs --state-file PATH: what is not yet delivered is kept beside it', {
      hint: 'e.g. --state-file props.state (its outbox and dead letters go next to it)',
    });
  }
  if (exec !== undefined) throw new UsageError('--exec and --forward-to are alternatives: pass one');
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  const timeoutMs = parseDuration(flags.forwardTimeout ?? FORWARD_DEFAULTS.timeout, '--forward-timeout', {
    minMs: 100,
    maxMs: 10 * 60_000,
  });
  const retryForMs = parseDuration(flags.retryFor ?? FORWARD_DEFAULTS.retryFor, '--retry-for', { minMs: 0, maxMs: 30 * 24 * 3_600_000 });
  let concurrency = 1;
  if (flags.forwardConcurrency !== undefined) {
    const raw = flags.forwardConcurrency.trim();
    concurrency = Number(raw);
    if (!/^\d+$/.test(raw) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
      throw new UsageError(`--forward-concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${raw.slice(0, 20)}"`);
    }
  }
  return {
    url,
    secretFile: absolute(flags.forwardSecretFile ?? `${statePath}.webhook-secret`),
    secretFileNamed: flags.forwardSecretFile !== undefined,
    timeoutMs,
    retryForMs,
    deadLetterPath: absolute(flags.deadLetter ?? `${statePath}.dead-letter.ndjson`),
    outboxPath: `${statePath}.outbox`,
    caFile: flags.forwardCaFile === undefined ? undefined : absolute(flags.forwardCaFile),
    concurrency,
    redeliver: flags.redeliver === true,
  };
}
