// Guards for actions that cannot be undone: a production banner on stderr, then confirmation on a
// terminal, or --yes without one. An environment that is not one of the known non-production ones
// counts as production.
import type { Context } from './context.js';
import { CancelledError, UsageError } from './errors.js';

const NON_PRODUCTION: readonly string[] = ['staging', 'development', 'local'];

/** Production, or anything we cannot tell apart from it. */
export function isProductionLike(environment: string | undefined): boolean {
  return environment === undefined || !NON_PRODUCTION.includes(environment);
}

export interface GuardTarget {
  profileName: string;
  environment: string | undefined;
  baseUrl?: string | undefined;
  keyPrefix?: string | undefined;
}

export function productionBanner(target: GuardTarget): string {
  const where = target.baseUrl ? ` at ${target.baseUrl}` : '';
  const key = target.keyPrefix ? `, key ${target.keyPrefix}…` : '';
  const environment =
    target.environment === 'production'
      ? 'PRODUCTION'
      : `PRODUCTION (environment "${target.environment ?? 'unset'}" is treated as production)`;
  return `!! ${environment}: profile ${target.profileName}${where}${key}`;
}

async function sessionTarget(ctx: Context): Promise<GuardTarget> {
  const session = await ctx.session();
  return {
    profileName: session.profileName,
    environment: session.environment,
    baseUrl: session.baseUrl,
    keyPrefix: session.credential?.prefix,
  };
}

/** The confirmation of a run that writes to a production target (productionWrites). */
export interface WriteConfirmation {
  /** A person will be asked (no --yes): what the run will do is worth counting first. */
  readonly asks: boolean;
  /** The banner, then the question (or --yes): `detail` is added to the action ("…: create 3, update 2"). */
  confirm(detail?: string): Promise<void>;
}

/**
 * A run that writes many things (an import) on the session's target: undefined when it is not
 * production; else its confirmation, asked once the run knows what it will do. When nobody can
 * answer (a pipe, cron) and --yes is not given it is refused now, naming --yes, before anything is
 * read or sent.
 */
export async function productionWrites(ctx: Context, action: string): Promise<WriteConfirmation | undefined> {
  const target = await sessionTarget(ctx);
  if (!isProductionLike(target.environment)) return undefined;
  if (!ctx.globals.yes && !ctx.io.canPrompt) await confirmDestructive(ctx, action, target);
  return { asks: !ctx.globals.yes, confirm: (detail = '') => confirmDestructive(ctx, `${action}${detail}`, target) };
}

/**
 * Ask before a destructive action. `action` says what will happen ("delete property 1234").
 * The target defaults to the session (profile, environment, key prefix); commands acting on
 * something else (e.g. `profiles remove NAME`) pass it. `named`, read only when a person is asked
 * (never with --yes or in a script), is what names the thing beside its id: the prompt reads
 * `delete property 1234 (Franklin Apartments)?`; undefined leaves the id alone.
 */
export async function confirmDestructive(
  ctx: Context,
  action: string,
  target?: GuardTarget,
  named?: () => Promise<string | undefined>,
): Promise<void> {
  const subject = target ?? (await sessionTarget(ctx));
  // Not quiet-able: it is there to be seen.
  if (isProductionLike(subject.environment)) ctx.io.writeErr(productionBanner(subject));
  if (ctx.globals.yes) return;
  if (!ctx.io.canPrompt) {
    throw new UsageError(`${action}: confirmation needed; pass --yes to confirm without a prompt`);
  }
  const name = named ? await named() : undefined;
  const confirmed = await ctx.io.confirm(`${action}${name === undefined ? '' : ` (${name})`}?`);
  if (!confirmed) throw new CancelledError('cancelled; nothing was changed');
}
