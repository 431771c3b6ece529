// `keys rotate --deliver CMD`: each command gets the new secret on its stdin (nothing else, no
// newline), an environment without any credential plus APPRAISAL_KEY_PREFIX / APPRAISAL_KEY_ID,
// and --deliver-timeout to finish; its output is copied to stderr, redacted. A failure throws a
// DeliveryError naming the delivery, and the rotation rolls back.
import { runChildCommand } from '../../../core/child-command.js';
import { childEnvironment } from '../../../core/child-env.js';
import type { Context } from '../../../core/context.js';
import { DeliveryError, InterruptedError, UsageError } from '../../../core/errors.js';
import { quoteInput } from '../../../core/ids.js';
import type { Delivery } from './types.js';

export const DEFAULT_DELIVER_TIMEOUT_MS = 60_000;

/** `30s`, `2m`, `500ms` or plain seconds. */
export function parseDeliverTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_DELIVER_TIMEOUT_MS;
  const match = /^(\d{1,7})\s*(ms|s|m)?$/i.exec(text.trim());
  const ms = match
    ? Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000 } as const)[(match[2]?.toLowerCase() ?? 's') as 'ms' | 's' | 'm']
    : Number.NaN;
  if (!(ms > 0 && ms <= 3_600_000)) {
    throw new UsageError(`--deliver-timeout must be a time such as 30s, 2m or 500ms (at most 1 hour); got ${quoteInput(text)}`);
  }
  return ms;
}

/** The deliveries of one rotation, in the order given. */
export function deliveries(ctx: Context, commands: readonly string[], timeoutMs: number): Delivery[] {
  const total = commands.length;
  return commands.map((command, index) => {
    const label = total > 1 ? `delivery ${index + 1}/${total} (${command})` : `delivery (${command})`;
    return {
      label: command,
      async run(secret, key) {
        if (command.trim() === '') throw new UsageError('--deliver needs a command');
        const outcome = await runChildCommand({
          command,
          input: secret,
          env: childEnvironment(ctx.env, ctx.io.redactor, { APPRAISAL_KEY_PREFIX: key.prefix, APPRAISAL_KEY_ID: key.id }),
          cwd: ctx.cwd,
          timeoutMs,
          output: (line) => ctx.io.writeErr(`deliver: ${line}`),
          signal: ctx.signal,
        });
        if (!outcome.ok && outcome.interrupted) throw new InterruptedError();
        if (!outcome.ok) throw new DeliveryError(`${label} ${outcome.reason}${outcome.timedOut ? ' (--deliver-timeout)' : ''}`);
      },
    };
  });
}
