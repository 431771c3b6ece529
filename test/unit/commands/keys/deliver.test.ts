// `keys rotate --deliver`: what a delivery's failure, timeout and Ctrl-C become (real shells, through
// the one child runner). Waits are on what the command prints, never on time.
import { describe, expect, it, vi } from 'vitest';
import { DeliveryError, InterruptedError, UsageError } from '../../../../src/core/errors.js';
import { deliveries, parseDeliverTimeout } from '../../../../src/commands/keys/rotation/deliver.js';
import { fakeContext } from '../../../helpers/fake-context.js';

const KEY = { id: '00000000-0000-4000-8000-000000000001', prefix: 'apk_AAAAaaaa' };
const SECRET = 'apk_AAAAaaaa_0123456789abcdefghijABCDEFGHIJ';

function delivery(command: string, timeoutMs = 60_000) {
  const fake = fakeContext({ env: { PATH: process.env.PATH } });
  return { fake, run: () => deliveries(fake.ctx, [command], timeoutMs)[0]!.run(SECRET, KEY) };
}

describe('deliveries', () => {
  it('a failing command is a DeliveryError naming it and its exit code; its output reaches stderr', async () => {
    const { fake, run } = delivery('echo refused >&2; exit 3');
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as Error).message).toBe('delivery (echo refused >&2; exit 3) exited with code 3');
    expect(fake.stderr()).toContain('deliver: refused');
  });

  it('a command past --deliver-timeout is killed and named with the flag', async () => {
    const { run } = delivery('sleep 60', 200);
    expect(((await run().catch((e: unknown) => e)) as Error).message).toBe('delivery (sleep 60) timed out after 200ms (--deliver-timeout)');
  });

  it('Ctrl-C during a delivery interrupts it: InterruptedError (exit 130), not a failed delivery', async () => {
    const { fake, run } = delivery("trap 'exit 130' INT; echo waiting >&2; while :; do sleep 1; done");
    const running = run().catch((e: unknown) => e);
    await vi.waitFor(() => expect(fake.stderr()).toContain('deliver: waiting'));
    fake.abort(new InterruptedError());
    expect(await running).toBeInstanceOf(InterruptedError);
  });

  it('parseDeliverTimeout takes 30s, 2m, 500ms or seconds, up to an hour', () => {
    expect(parseDeliverTimeout(undefined)).toBe(60_000);
    expect(parseDeliverTimeout('500ms')).toBe(500);
    expect(parseDeliverTimeout('2m')).toBe(120_000);
    expect(parseDeliverTimeout('45')).toBe(45_000);
    expect(() => parseDeliverTimeout('2h')).toThrow(UsageError);
  });
});
