// watch --forward-to an HTTPS receiver whose certificate this machine cannot accept: self-signed and
// not trusted, expired, issued for another name. None of these passes by retrying, so the watch
// stops at the first attempt (exit 24, even with the default --retry-for of 24h), says why in one
// error line with the fix in its hint, dead-letters nothing and keeps every event in the outbox: the
// next run, with the receiver's certificate trusted, delivers them, verified with `standardwebhooks`.
// Certificates are made by the test (selfsigned, as the mock makes its own).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { run, type RunResult } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';
import { startReceiver, verify, type Receiver } from './watch-forward-receiver.js';

const RECORDS = 3;
let mock: MockServer;
let env: Record<string, string | undefined>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  mock = await startMock({ records: RECORDS, seed: 5 });
  env = isolatedEnv(mock.env);
});
afterAll(async () => {
  await mock?.stop();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const HOUR = 3_600_000;

/** A certificate for `names` (127.0.0.1 as an IP), signed by `ca` or by itself, valid from `from` to `to`. */
async function certificate(options: {
  names: Array<{ type: 2; value: string } | { type: 7; ip: string }>;
  ca?: { key: string; cert: string };
  from?: number;
  to?: number;
  isCa?: boolean;
}): Promise<{ key: string; cert: string }> {
  const made = await generate([{ name: 'commonName', value: options.isCa ? 'watch test CA' : 'watch receiver' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(options.from ?? Date.now() - HOUR),
    notAfterDate: new Date(options.to ?? Date.now() + 24 * HOUR),
    ...(options.ca ? { ca: options.ca } : {}),
    extensions: [
      { name: 'basicConstraints', cA: options.isCa === true, critical: true },
      options.isCa
        ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }
        : { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      ...(options.isCa
        ? []
        : [
            { name: 'extKeyUsage' as const, serverAuth: true },
            { name: 'subjectAltName' as const, altNames: options.names },
          ]),
    ],
  });
  return { key: made.private, cert: made.cert };
}

async function watch(dir: string, args: string[]): Promise<RunResult> {
  // A guard, not a wait: a run that retried instead of stopping would hold the test for 24 hours.
  return run(['watch', 'props', '--state-file', join(dir, 'props.state'), '--once', ...args], {
    env,
    cwd: dir,
    signal: AbortSignal.timeout(20_000),
  });
}

describe('watch --forward-to an HTTPS receiver whose certificate is refused', () => {
  it('self-signed, not trusted: stops at once (exit 24) naming the reason and --forward-ca-file; the next run with it delivers everything', async () => {
    const tls = await certificate({ names: [{ type: 7, ip: '127.0.0.1' }] });
    const target = await startReceiver({ tls });
    receivers.push(target);
    // A catch hook's token in the path and the query: not in any message.
    const url = `${target.url}/T0k3nInThePath?sig=t0k3nInTheQuery`;
    const dir = tempDir('forward-tls-');
    const result = await watch(dir, ['--emit-existing', '--forward-to', url]);
    expect(result.code, result.stderr).toBe(24);
    const shown = `https://127.0.0.1:${target.port}/hooks/…`;
    const outbox = join(dir, 'props.state.outbox');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toEqual([
      `error: cannot reach the webhook receiver ${shown} securely: the TLS certificate of 127.0.0.1:${target.port} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT); the watch stopped`,
    ]);
    expect(result.stderr).toMatch(
      new RegExp(
        `^hint: trust the CA that signed the receiver's certificate with --forward-ca-file PATH, .*; msg_[0-9a-f]{32} and every event after it wait in ${outbox} for the next run$`,
        'm',
      ),
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr + result.stdout).not.toMatch(/t0k3n/i);
    // Nothing was sent, nothing dead-lettered, every event kept.
    expect(target.requests).toEqual([]);
    expect(result.stdout).toBe('');
    expect(existsSync(join(dir, 'props.state.dead-letter.ndjson'))).toBe(false);
    expect(readFileSync(outbox, 'utf8').match(/^A /gm)).toHaveLength(RECORDS);

    // The receiver's certificate trusted: the same events go, signed, and the outbox empties.
    writeFileSync(join(dir, 'receiver.pem'), tls.cert);
    const again = await watch(dir, ['--forward-to', url, '--forward-ca-file', 'receiver.pem']);
    expect(again.code, again.stderr).toBe(0);
    target.secrets = readFileSync(join(dir, 'props.state.webhook-secret'), 'utf8').split('\n').filter(Boolean);
    expect(target.delivered()).toHaveLength(RECORDS);
    for (const request of target.requests) expect(verify(request, target.secrets[0]!)).toBeUndefined();
    expect(readFileSync(outbox, 'utf8')).toBe('appraisal-watch-outbox 1\n');
  });

  it('expired, or issued for another name: stops at once with what is wrong and that --forward-ca-file cannot help', async () => {
    const ca = await certificate({ names: [], isCa: true });
    const dir = tempDir('forward-tls-');
    writeFileSync(join(dir, 'ca.pem'), ca.cert);
    const cases: Array<[Parameters<typeof certificate>[0], string, string]> = [
      [
        { names: [{ type: 7, ip: '127.0.0.1' }], ca, from: Date.now() - 48 * HOUR, to: Date.now() - 24 * HOUR },
        'has expired (CERT_HAS_EXPIRED)',
        "hint: the receiver's certificate must be renewed (--forward-ca-file cannot help)",
      ],
      [
        { names: [{ type: 2, value: 'hooks.example.com' }], ca },
        'does not match its host name',
        "hint: use the host name the receiver's certificate was issued for in --forward-to",
      ],
    ];
    for (const [options, reason, hint] of cases) {
      const target = await startReceiver({ tls: await certificate(options) });
      receivers.push(target);
      const state = tempDir('forward-tls-');
      const result = await watch(state, ['--emit-existing', '--forward-to', target.url, '--forward-ca-file', join(dir, 'ca.pem')]);
      expect(result.code, result.stderr).toBe(24);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(`error: cannot reach the webhook receiver https://127.0.0.1:${target.port}/hooks/… securely: `);
      expect(errors[0]).toContain(reason);
      expect(result.stderr).toContain(hint);
      expect(target.requests).toEqual([]);
      expect(readFileSync(join(state, 'props.state.outbox'), 'utf8').match(/^A /gm)).toHaveLength(RECORDS);
    }
  });
});
