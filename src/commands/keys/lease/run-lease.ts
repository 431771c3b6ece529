// `appraisal keys lease --scope S… --ttl 30m -- CMD ARGS`: mint a key for one job, run CMD with it
// (and with nothing else secret), revoke it when CMD ends, exit as CMD did. Every path out — CMD's
// success or failure, Ctrl-C, SIGTERM, a CMD that ignores SIGTERM (SIGKILL after the grace period) —
// goes through the one revoke below; only `kill -9` of this process leaves the TTL to end the key.
import { constants } from 'node:os';
import { runChildCommand, type ChildOutcome } from '../../../core/child-command.js';
import { leaseEnvironment } from '../../../core/child-env.js';
import type { Context } from '../../../core/context.js';
import { ChildExitError, LeaseRevokeError, UsageError } from '../../../core/errors.js';
import { formatDuration } from '../../../core/duration.js';
import { confirmDestructive, isProductionLike } from '../../../core/guards.js';
import { ownProcess } from '../../../core/process-facts.js';
import { requireCredential } from '../../../core/session.js';
import type { Session } from '../../../core/session.js';
import type { ResolvedCredential } from '../../../core/credentials/credential.js';
import { parseScopes } from '../scopes.js';
import { scopesForOperations } from './derived-scopes.js';
import { leaseName } from '../../../core/credentials/lease-name.js';
import { leaseClient } from './lease-client.js';
import { mintLease, type Lease } from './mint.js';
import { revokeCommand, revokeLease } from './revoke-lease.js';
import { appraisalArguments, targetCommand } from './target-command.js';
import type { DeclaredVerb } from '../../../core/verb.js';
import { parseTtl } from './ttl.js';

export interface LeaseOptions {
  scope?: string[];
  ttl?: string;
  /** false with --no-mask. */
  mask?: boolean;
}

/** The command as one line for messages and the key's name (redacted: an argument may hold a secret). */
function commandLine(ctx: Context, argv: readonly string[]): string {
  return ctx.io.redactor.redact(argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(' '));
}

/** --scope as given, or derived from what the `appraisal` command CMD runs declares it calls. */
function leaseScopes(
  options: LeaseOptions,
  argv: readonly string[],
  verbs: readonly DeclaredVerb[],
): { scopes: string[]; derivedFrom?: string } {
  if (options.scope !== undefined && options.scope.length > 0) return { scopes: parseScopes(options.scope) };
  const args = appraisalArguments(argv);
  if (args === undefined) {
    throw new UsageError('keys lease needs --scope SCOPE (repeat for several) unless CMD is itself an appraisal command', {
      hint: 'e.g. appraisal keys lease --scope properties:read --ttl 10m -- ./report.sh',
    });
  }
  const target = targetCommand(verbs, args);
  const scopes = scopesForOperations(target.operations);
  if (scopes.length === 0) {
    throw new UsageError(`\`appraisal ${target.path}\` calls nothing that needs a scope: there is nothing to lease`, {
      hint: 'give the scopes with --scope if the command needs a key anyway',
    });
  }
  return { scopes, derivedFrom: target.path };
}

/** CMD's exit status as a shell reports it: its code, or 128+N for signal N. */
function exitStatus(outcome: ChildOutcome): number {
  if (outcome.ok) return 0;
  if (outcome.code !== null) return outcome.code;
  if (outcome.signal !== null) return 128 + (constants.signals[outcome.signal] ?? 0);
  // It never ran (not found, not executable): as a shell says it.
  return 127;
}

function baseUrlFlag(ctx: Context): string | undefined {
  const flag = ctx.globals.baseUrl;
  return flag !== undefined && flag !== ctx.env.APPRAISAL_BASE_URL ? flag : undefined;
}

/**
 * What CMD's output has masked: the leased key, and the key the lease was made with (CMD could read
 * it where this user keeps it: the keychain, a key file), each shown by its prefix.
 */
function leaseMasks(lease: Lease, parent: ResolvedCredential): Array<{ secret: string; replacement: string }> {
  return [
    { secret: lease.secret, replacement: `${lease.prefix}…` },
    { secret: parent.secret, replacement: `${parent.prefix}…` },
  ];
}

async function runWithLease(
  ctx: Context,
  argv: readonly string[],
  lease: Lease,
  session: Session,
  parent: ResolvedCredential,
  mask: boolean,
): Promise<ChildOutcome> {
  return runChildCommand({
    command: argv,
    // A child in a process group of its own must not read the terminal itself: it gets our stdin through a pipe then.
    stdin: ctx.io.stdinIsTTY ? ctx.io.stdin : 'inherit',
    env: leaseEnvironment(ctx.env, ctx.io.redactor, { secret: lease.secret, baseUrl: session.baseUrl, caFile: session.caFile }),
    cwd: ctx.cwd,
    output: {
      stdout: ctx.io.stdout,
      stderr: ctx.io.stderr,
      masks: mask ? leaseMasks(lease, parent) : undefined,
    },
    signal: ctx.signal,
  });
}

export async function runLease(
  ctx: Context,
  argv: readonly string[],
  options: LeaseOptions,
  verbs: readonly DeclaredVerb[],
): Promise<void> {
  if (argv.length === 0 || argv[0] === '') {
    throw new UsageError('give the command to run after --', { hint: 'appraisal keys lease --scope api:read --ttl 10m -- CMD [ARGS...]' });
  }
  const ttlMs = parseTtl(options.ttl);
  const { scopes, derivedFrom } = leaseScopes(options, argv, verbs);
  const session = await ctx.session();
  const parent = requireCredential(session);
  const line = commandLine(ctx, argv);
  if (isProductionLike(session.environment)) {
    await confirmDestructive(ctx, `create a key with ${scopes.join(', ')} for ${formatDuration(ttlMs)} to run ${line}`);
  }

  const { api, clock } = await leaseClient(ctx, session);
  try {
    const me = ownProcess();
    const lease = await mintLease(ctx, api, clock, { name: leaseName({ command: line, host: me.host, pid: me.pid }), scopes, ttlMs });
    ctx.io.notice(
      `Leased key ${lease.prefix} (${lease.scopes.join(', ')}${derivedFrom ? `, from what \`appraisal ${derivedFrom}\` calls` : ''}) until ${lease.expiresAt}; running ${line}`,
    );
    // From here an interrupt is passed to CMD, and how CMD ends is how we end.
    ctx.runUntilInterrupted();
    let outcome: ChildOutcome | undefined;
    let thrown: unknown;
    try {
      outcome = await runWithLease(ctx, argv, lease, session, parent, options.mask !== false);
    } catch (error) {
      thrown = error;
    }
    const failure = await revokeLease(api, lease);
    const ended = outcome === undefined ? 'did not run' : outcome.ok ? 'succeeded' : outcome.reason;
    if (failure !== undefined) {
      throw new LeaseRevokeError(
        `\`${line}\` ${ended}, but its lease key ${lease.prefix} could not be revoked (${failure}); it works until ${lease.expiresAt}: revoke it now with \`${revokeCommand(lease, session, baseUrlFlag(ctx))}\``,
      );
    }
    ctx.io.notice(`Revoked lease key ${lease.prefix}`);
    if (outcome === undefined) throw thrown;
    const status = exitStatus(outcome);
    if (status !== 0) throw new ChildExitError(`\`${line}\` ${ended}; its lease key ${lease.prefix} was revoked`, status);
  } finally {
    await api.close().catch(() => undefined);
  }
}
