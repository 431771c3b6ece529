// The rotation state machine against the mock's key store (in process) and an in-memory key slot: the happy path, and a
// failure at every step, checking what the slot, the profile and the service are left with.
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ContractError,
  DeliveryError,
  LocalEnvironmentError,
  NetworkError,
  PermissionError,
  ServiceUnavailableError,
} from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import {
  replacementExpiry,
  rotatedName,
  rotateKey,
  rotationError,
  RotationError,
  rotationFailure,
  type RotationDeps,
  type RotationReport,
  type RotationRequest,
} from '../../../../src/commands/keys/rotation/run-steps.js';
import { FakeSlot } from '../../core/credentials/fakes.js';
import { MockKeyRoutes, type FaultFn, type IssuedKey, type NewTestKey } from './mock-key-routes.js';

const NOW = new Date('2026-03-01T00:00:00.000Z');

interface Setup {
  service: MockKeyRoutes;
  old: IssuedKey;
  slot: FakeSlot;
  profilePrefix: string[];
  progress: string[];
  registered: string[];
  run(options?: {
    keepOld?: boolean;
    expiresAt?: string;
    interruptAfter?: number;
    deps?: Partial<RotationDeps>;
    graceMs?: number;
    deliveries?: RotationRequest['deliveries'];
  }): Promise<RotationReport>;
}

function setup(fault?: FaultFn, oldFields: NewTestKey = {}): Setup {
  const service = new MockKeyRoutes(() => NOW);
  const old = service.addKey({ name: 'ci bot', ...oldFields });
  const slot = new FakeSlot(old.secret);
  const profilePrefix: string[] = [];
  const progress: string[] = [];
  const registered: string[] = [];
  if (fault) service.fault = fault;
  return {
    service,
    old,
    slot,
    profilePrefix,
    progress,
    registered,
    run: (options = {}) => {
      let checks = 0;
      return rotateKey(
        {
          profileName: 'default',
          oldSecret: old.secret,
          oldPrefix: old.prefix,
          expiresAt: options.expiresAt,
          keepOld: options.keepOld ?? false,
          graceMs: options.graceMs,
          deliveries: options.deliveries,
        },
        {
          oldClient: service.client(old.secret),
          clientFor: (secret) => service.client(secret),
          slot,
          saveProfilePrefix: async (prefix) => void profilePrefix.push(prefix),
          register: (secret) => registered.push(secret),
          progress: (line) => progress.push(line),
          now: () => NOW,
          clock: () => 0,
          interrupted: () => options.interruptAfter !== undefined && checks++ >= options.interruptAfter,
          ...options.deps,
        },
      );
    },
  };
}

const newKeyOf = (s: Setup) => s.service.keys().find((key) => key.id !== s.old.id);

/** Everything the user or a log could see: no secret may be in it. */
function visible(s: Setup, report: RotationReport): string {
  const failure = report.outcome === 'rotated' ? { message: '', hint: '' } : rotationFailure(report, { profileName: 'default' });
  return (
    JSON.stringify({ steps: report.steps, rollback: report.rollback, newKey: report.newKey, oldKey: report.oldKey }) +
    s.progress.join('\n') +
    failure.message +
    failure.hint
  );
}

function expectNoSecrets(s: Setup, report: RotationReport): void {
  const text = visible(s, report);
  for (const key of s.service.keys()) expect(text).not.toContain(key.secret);
}

describe('rotateKey: success', () => {
  it('creates a same-scoped replacement, verifies it, stores it, verifies the stored key, then revokes the old one', async () => {
    const s = setup();
    const report = await s.run();
    const fresh = newKeyOf(s)!;
    expect(report.outcome).toBe('rotated');
    expect(report.steps.map((step) => [step.step, step.ok])).toEqual([
      ['read-current', true],
      ['create', true],
      ['verify-new', true],
      ['store', true],
      ['verify-stored', true],
      ['revoke-old', true],
    ]);
    expect(fresh).toMatchObject({ name: 'ci bot (rotated 2026-03-01)', scopes: ['api:read', 'keys:admin'], expiresAt: null });
    expect(s.slot.value).toBe(fresh.secret);
    expect(s.profilePrefix).toEqual([fresh.prefix]);
    expect(s.service.works(fresh.secret)).toBe(true);
    expect(s.service.works(s.old.secret)).toBe(false);
    expect(s.registered).toEqual([fresh.secret]);
    // The old key is revoked with the new one, and only after the stored key was used.
    const revoke = s.service.log.findIndex((line) => line.includes(`DELETE /api/keys/${s.old.id}`));
    expect(s.service.log[revoke]).toMatch(new RegExp(`^${fresh.prefix} `));
    expect(s.service.log.slice(0, revoke).filter((line) => line.startsWith(fresh.prefix))).toHaveLength(3);
    expect(report.newPrefix).toBe(fresh.prefix);
    expectNoSecrets(s, report);
  });

  it('--keep-old leaves the old key working', async () => {
    const s = setup();
    const report = await s.run({ keepOld: true });
    expect(report.outcome).toBe('rotated');
    expect(report.steps.map((step) => step.step)).not.toContain('revoke-old');
    expect(s.service.works(s.old.secret)).toBe(true);
    expect(s.slot.value).toBe(newKeyOf(s)!.secret);
  });

  it('gives the new key the old key\u2019s lifetime, or the expiry asked for', async () => {
    const inherited = setup(undefined, { createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-04-01T00:00:00.000Z' });
    await inherited.run();
    expect(newKeyOf(inherited)!.expiresAt).toBe('2026-05-30T00:00:00.000Z'); // 90 days from NOW
    const asked = setup(undefined, { createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-04-01T00:00:00.000Z' });
    await asked.run({ expiresAt: '2026-03-13T00:00:00.000Z' });
    expect(newKeyOf(asked)!.expiresAt).toBe('2026-03-13T00:00:00.000Z');
  });
});

describe('rotateKey: a failure at each step leaves the profile with a working key', () => {
  it('1 read-current: nothing happens', async () => {
    const s = setup((method, path) => (path === '/api/keys/current' ? new NetworkError('connect ECONNREFUSED') : undefined));
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'read-current' });
    expect(s.service.keys()).toHaveLength(1);
    expect(s.slot.calls).toEqual([]);
    expect(exitCodeFor(rotationError(report, { profileName: 'default' }))).toBe(3);
  });

  it('2 create refused (403): nothing to undo; exit 5 with the admin hint', async () => {
    const s = setup((method, path) =>
      method === 'POST' ? new PermissionError('POST /api/keys: 403 Forbidden', { status: 403, method, path }) : undefined,
    );
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'create', oldKeyWorks: true });
    expect(s.slot.value).toBe(s.old.secret);
    expect(s.profilePrefix).toEqual([]);
    const error = rotationError(report, { profileName: 'default' });
    // One rotation error; its exit code is its cause's, from the one exit-code table.
    expect(error).toBeInstanceOf(RotationError);
    expect(error.cause).toBeInstanceOf(PermissionError);
    expect(exitCodeFor(error)).toBe(5);
    expect(error.message).toBe(
      `key rotation failed at step 2/6 (create the replacement): POST /api/keys: 403 Forbidden. Nothing was changed. Profile default still uses the old key ${s.old.prefix}, which works`,
    );
    expect(error.hint).toMatch(/keys:admin or api:admin.*keys create .*--store-as default/);
  });

  it('2 create: a lost answer says the key may exist', async () => {
    const s = setup((method) => (method === 'POST' ? new NetworkError('socket hang up') : undefined));
    const report = await s.run();
    expect(report.maybeCreatedName).toBe('ci bot (rotated 2026-03-01)');
    const failure = rotationFailure(report, { profileName: 'default' });
    expect(failure.message).toContain('may have created the key "ci bot (rotated 2026-03-01)"');
    expect(failure.hint).toMatch(/keys list/);
  });

  it('2 create: an answer without a secret is a contract error, and the key it made is revoked', async () => {
    const s = setup();
    const oldClient = s.service.client(s.old.secret);
    const report = await s.run({
      deps: {
        oldClient: {
          ...oldClient,
          send: async <T>(method: Parameters<typeof oldClient.send>[0], path: string, body?: unknown) => {
            const answer = (await oldClient.send(method, path, body)) as Record<string, unknown> | undefined;
            if (method === 'POST') delete answer!.secret;
            return answer as T;
          },
        },
      },
    });
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'create' });
    expect(report.error).toBeInstanceOf(ContractError);
    expect(newKeyOf(s)!.revokedAt).not.toBeNull();
  });

  it('3 verify-new fails (401 for the new key): the new key is revoked with the old one; the slot is untouched', async () => {
    // Any key but the old one is the new key.
    const s = setup((method, path, prefix) => {
      if (path === '/api/keys/current' && prefix !== s.old.prefix)
        return new AuthenticationError('GET /api/keys/current: 401', { status: 401, method, path });
      return undefined;
    });
    const report = await s.run();
    const fresh = newKeyOf(s)!;
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'verify-new', oldKeyWorks: true });
    expect(report.rollback.map((step) => [step.step, step.ok])).toEqual([
      ['revoke-new-key', true],
      ['check-old-key', true],
    ]);
    expect(fresh.revokedAt).not.toBeNull();
    expect(s.slot.calls).toEqual([]);
    expect(s.service.works(s.old.secret)).toBe(true);
    const error = rotationError(report, { profileName: 'default' });
    expect(exitCodeFor(error)).toBe(4);
    expect(error.message).toContain(
      `Rolled back: the new key ${fresh.prefix} was revoked. Profile default still uses the old key ${s.old.prefix}, which works`,
    );
    expect(error.hint).toMatch(/nothing needs fixing/);
    expectNoSecrets(s, report);
  });

  it('3 verify-new: a new key with other scopes than asked is refused', async () => {
    const s = setup();
    const origHandle = s.service.handle.bind(s.service);
    s.service.handle = (secret, method, path, body) => {
      const answer = origHandle(secret, method, path, body) as Record<string, unknown>;
      if (method === 'GET' && path === '/api/keys/current' && secret !== s.old.secret) return { ...answer, scopes: ['api:read'] };
      return answer;
    };
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'verify-new' });
    expect(String((report.error as Error).message)).toMatch(/scopes api:read, not api:read keys:admin/);
  });

  it('4 store refused (locked keychain): the old key was never replaced; the new key is revoked; exit 2', async () => {
    const s = setup();
    s.slot.writeFailures = ['refused'];
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'store', oldKeyWorks: true });
    expect(s.slot.value).toBe(s.old.secret);
    expect(s.slot.calls).toEqual([`write ${newKeyOf(s)!.prefix}`]);
    expect(s.profilePrefix).toEqual([]);
    expect(newKeyOf(s)!.revokedAt).not.toBeNull();
    const error = rotationError(report, { profileName: 'default' });
    expect(error).toBeInstanceOf(RotationError);
    expect(error.cause).toBeInstanceOf(LocalEnvironmentError);
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toMatch(
      /^key rotation failed at step 4\/6 \(store the new key\): could not write the key: the OS keychain is locked\. Rolled back/,
    );
  });

  it('4 store timed out but wrote anyway: the old key is written back and read back before the new key is revoked', async () => {
    const s = setup();
    s.slot.writeFailures = ['timeout-written'];
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'store' });
    expect(report.rollback.map((step) => step.step)).toEqual(['restore-old-key', 'revoke-new-key', 'check-old-key']);
    expect(s.slot.value).toBe(s.old.secret);
    expect(newKeyOf(s)!.revokedAt).not.toBeNull();
  });

  it('4 store timed out and the old key cannot be written back: neither key is revoked', async () => {
    const s = setup();
    s.slot.writeFailures = ['timeout-written', 'timeout-unwritten'];
    const report = await s.run();
    const fresh = newKeyOf(s)!;
    expect(report).toMatchObject({ outcome: 'both-keys-active', failedStep: 'store' });
    expect(s.service.works(s.old.secret)).toBe(true);
    expect(s.service.works(fresh.secret)).toBe(true);
    // Whatever the slot holds works.
    expect(s.service.works(s.slot.value!)).toBe(true);
    const failure = rotationFailure(report, { profileName: 'default' });
    expect(failure.message).toContain(
      `neither key was revoked: the old key ${s.old.prefix} and the new key ${fresh.prefix} both still work`,
    );
    expect(failure.hint).toContain('appraisal auth status --profile default');
  });

  it('4 saving the profile fails after the slot was written: the slot is restored', async () => {
    const s = setup();
    let saves = 0;
    const report = await s.run({
      deps: {
        saveProfilePrefix: async () => {
          if (saves++ === 0) throw new LocalEnvironmentError('cannot write config.json: ENOSPC');
        },
      },
    });
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'store' });
    expect(s.slot.value).toBe(s.old.secret);
    expect(report.rollback.map((step) => step.step)).toEqual(['restore-old-key', 'restore-profile', 'revoke-new-key', 'check-old-key']);
  });

  it('5 verify-stored: the slot reads back something else — restore, then revoke the new key', async () => {
    const s = setup();
    s.slot.readOverride = 'apk_XXXXXXXX_somethingelseentirelyxxxxxxxxxxxxx';
    const original = s.slot.read.bind(s.slot);
    let reads = 0;
    s.slot.read = async () => (reads++ === 0 ? original() : s.slot.value);
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'verify-stored' });
    expect(String((report.error as Error).message)).toMatch(/does not hold the new key/);
    expect(s.slot.value).toBe(s.old.secret);
    expect(s.profilePrefix).toEqual([newKeyOf(s)!.prefix, s.old.prefix]);
    expect(newKeyOf(s)!.revokedAt).not.toBeNull();
  });

  it('5 verify-stored: the stored key is refused — rolled back', async () => {
    let calls = 0;
    const s = setup((method, path, prefix) => {
      if (path !== '/api/keys/current' || prefix === s.old.prefix) return undefined;
      return calls++ === 1 ? new AuthenticationError('GET /api/keys/current: 401', { status: 401, method, path }) : undefined;
    });
    const report = await s.run();
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'verify-stored', oldKeyWorks: true });
    expect(s.slot.value).toBe(s.old.secret);
  });

  it('6 revoke-old fails (503): the new key is in place and works, the old one still works; exit 8 with the command to finish', async () => {
    const s = setup((method, path) =>
      method === 'DELETE'
        ? new ServiceUnavailableError(`DELETE ${path}: 503 Service Unavailable`, { status: 503, method, path })
        : undefined,
    );
    const report = await s.run();
    const fresh = newKeyOf(s)!;
    expect(report).toMatchObject({ outcome: 'rotated-old-key-active', failedStep: 'revoke-old' });
    expect(report.rollback).toEqual([]);
    expect(s.slot.value).toBe(fresh.secret);
    expect(s.service.works(fresh.secret)).toBe(true);
    expect(s.service.works(s.old.secret)).toBe(true);
    const error = rotationError(report, { profileName: 'default' });
    expect(exitCodeFor(error)).toBe(8);
    expect(error.message).toContain(
      `Profile default now uses the new key ${fresh.prefix}, which works; the old key ${s.old.prefix} was NOT revoked and still works`,
    );
    expect(error.hint).toBe(`revoke the old key once the service answers: \`appraisal keys revoke ${s.old.prefix} --yes\``);
  });

  it('the new key cannot be revoked during the roll-back: it is named with the command to revoke it', async () => {
    const s = setup((method, path, prefix) => {
      if (path === '/api/keys/current' && prefix !== s.old.prefix) return new AuthenticationError('401', { status: 401, method, path });
      if (method === 'DELETE') return new ServiceUnavailableError('503', { status: 503, method, path });
      return undefined;
    });
    const report = await s.run();
    const created = newKeyOf(s)!.prefix;
    expect(report.outcome).toBe('rolled-back-new-key-active');
    const failure = rotationFailure(report, { profileName: 'default' });
    expect(failure.message).toContain(`The new key ${created} could not be revoked and still works (it is stored nowhere)`);
    expect(failure.hint).toBe(`revoke it: \`appraisal keys revoke ${created} --yes\``);
  });

  it('an interrupt stops before the next step and rolls back (exit 130)', async () => {
    const s = setup();
    const report = await s.run({ interruptAfter: 3 });
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'store' });
    expect(s.slot.calls).toEqual([]);
    expect(newKeyOf(s)!.revokedAt).not.toBeNull();
    expect(exitCodeFor(rotationError(report, { profileName: 'default' }))).toBe(130);
  });
});

describe('rotateKey: deliveries and the grace period', () => {
  it('a failing delivery rolls back like a failed verification, naming the deliveries that got the new key (exit 21)', async () => {
    const s = setup();
    const got: string[] = [];
    const report = await s.run({
      deliveries: [
        { label: 'first', run: async (secret) => void got.push(secret) },
        {
          label: 'second',
          run: async () => {
            throw new DeliveryError('delivery 2/2 (second) exited with 1');
          },
        },
      ],
    });
    const fresh = newKeyOf(s)!;
    expect(report).toMatchObject({ outcome: 'rolled-back', failedStep: 'deliver', delivered: ['first'], oldKeyWorks: true });
    expect(report.plan).toHaveLength(7);
    expect(got).toEqual([fresh.secret]);
    expect(s.slot.value).toBe(s.old.secret);
    expect(fresh.revokedAt).not.toBeNull();
    expect(s.service.works(s.old.secret)).toBe(true);
    const error = rotationError(report, { profileName: 'default' });
    expect(exitCodeFor(error)).toBe(21);
    expect(error.message).toContain('key rotation failed at step 6/7 (deliver the new key): delivery 2/2 (second) exited with 1.');
    expect(error.message).toContain('Delivery `first` already received the new key, which is now revoked');
    expectNoSecrets(s, report);
  });

  it('--grace: the old key stays working and its revocation is scheduled instead', async () => {
    const s = setup();
    const scheduled: unknown[] = [];
    const report = await s.run({ graceMs: 86_400_000, deps: { schedulePending: (pending) => scheduled.push(pending) } });
    expect(report.outcome).toBe('rotated');
    expect(report.plan).toEqual(['read-current', 'create', 'verify-new', 'store', 'verify-stored', 'schedule-revoke-old']);
    expect(scheduled).toEqual([{ id: s.old.id, prefix: s.old.prefix, dueAt: '2026-03-02T00:00:00.000Z' }]);
    expect(s.service.works(s.old.secret)).toBe(true);
    expect(s.slot.value).toBe(newKeyOf(s)!.secret);
  });
});

describe('helpers', () => {
  it('rotatedName does not pile up suffixes and stays within 200 characters', () => {
    expect(rotatedName('ci', NOW)).toBe('ci (rotated 2026-03-01)');
    expect(rotatedName('ci (rotated 2025-12-01)', NOW)).toBe('ci (rotated 2026-03-01)');
    expect(rotatedName(undefined, NOW)).toBe('api key (rotated 2026-03-01)');
    expect(rotatedName('x'.repeat(300), NOW)).toHaveLength(200);
  });

  it('replacementExpiry: asked for, else the old lifetime, else none', () => {
    expect(replacementExpiry('2027-01-01T00:00:00.000Z', { id: 'x' }, NOW)).toBe('2027-01-01T00:00:00.000Z');
    expect(replacementExpiry(undefined, { id: 'x', createdAt: '2026-01-01T00:00:00Z', expiresAt: '2026-01-11T00:00:00Z' }, NOW)).toBe(
      '2026-03-11T00:00:00.000Z',
    );
    expect(replacementExpiry(undefined, { id: 'x', createdAt: '2026-01-01T00:00:00Z', expiresAt: null }, NOW)).toBeUndefined();
  });
});
