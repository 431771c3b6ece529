// The pure pieces of `keys lease`: scopes derived from declared operations, the scopes a creating
// key lacks, the lease name read back, and the audit's lease findings.
import { describe, expect, it } from 'vitest';
import { scopesBeyond, scopesForOperations } from '../../../../../src/commands/keys/lease/derived-scopes.js';
import { isLeaseName, leaseHolder, leaseName } from '../../../../../src/core/credentials/lease-name.js';
import { withLeaseFindings } from '../../../../../src/commands/keys/lease/lease-marks.js';
import { auditKeys, type AuditedKey } from '../../../../../src/commands/keys/audit-findings.js';
import type { KeyRecord } from '../../../../../src/commands/keys/records.js';

describe('scopesForOperations', () => {
  it('takes each family at the highest level its operations need, keys:admin for key management, nothing for the caller’s own key', () => {
    expect(
      scopesForOperations([
        { method: 'GET', path: '/api/properties' },
        { method: 'PATCH', path: '/api/properties/{id}' },
        { method: 'GET', path: '/api/clients/{id}/contacts' },
        { method: 'DELETE', path: '/api/contacts/{id}' },
        { method: 'GET', path: '/api/reference/enums' },
        { method: 'GET', path: '/api/keys/current' },
        { method: 'GET', path: '/api/openapi.json' },
      ]),
    ).toEqual(['properties:write', 'clients:delete', 'reference:read']);
    expect(scopesForOperations([{ method: 'GET', path: '/api/keys' }])).toEqual(['keys:admin']);
    expect(scopesForOperations([{ method: 'GET', path: '/api/keys/current' }])).toEqual([]);
  });
});

describe('scopesBeyond', () => {
  it('names the requested scopes the holder does not cover', () => {
    expect(scopesBeyond(['api:read'], ['properties:read', 'files:write'])).toEqual(['files:write']);
    expect(scopesBeyond(['properties:delete'], ['properties:write'])).toEqual([]);
    expect(scopesBeyond(['api:write'], ['keys:admin', 'api:read'])).toEqual(['keys:admin']);
    expect(scopesBeyond(['api:admin'], ['api:delete', 'keys:admin'])).toEqual([]);
  });
});

describe('lease names', () => {
  it('round-trips holder, host and pid, and fits 200 characters with a long command', () => {
    const name = leaseName({ command: 'npm test', host: 'ci-7', pid: 4242 });
    expect(name).toBe('lease: npm test, host ci-7, pid 4242');
    expect(isLeaseName(name)).toBe(true);
    expect(leaseHolder(name)).toEqual({ command: 'npm test', host: 'ci-7', pid: 4242 });
    const long = leaseName({ command: 'x'.repeat(500), host: 'h', pid: 1 });
    expect(long.length).toBe(200);
    expect(leaseHolder(long)).toMatchObject({ host: 'h', pid: 1 });
    expect(isLeaseName('ci deploy')).toBe(false);
  });
});

describe('withLeaseFindings', () => {
  const key = (name: string, extra: Partial<AuditedKey> = {}): AuditedKey => ({
    severity: 'ok',
    prefix: 'apk_AbCd1234',
    name,
    scopes: ['api:read'],
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-01T01:00:00.000Z',
    daysLeft: 0,
    lastUsedAt: null,
    revokedAt: null,
    inUse: false,
    findings: [],
    id: 'k1',
    ...extra,
  });
  const now = new Date('2026-01-01T00:30:00.000Z');
  const facts = { host: 'here', alive: (pid: number) => pid === 1 };

  it('warns about an active lease whose process on this host is gone, and ranks it first', () => {
    const [first] = withLeaseFindings([key('ordinary', { severity: 'info' }), key('lease: job, host here, pid 2')], now, facts);
    expect(first!.severity).toBe('warning');
    expect(first!.findings[0]).toBe(
      'warning: lease outlived its process (pid 2 on here is gone); revoke it: appraisal keys revoke apk_AbCd1234 --yes',
    );
  });

  it('says who holds a running or unverifiable lease, and leaves revoked or expired ones alone', () => {
    const [running] = withLeaseFindings([key('lease: job, host here, pid 1')], now, facts);
    expect(running!.findings).toEqual(['info: lease held by pid 1 on here (running)']);
    const [elsewhere] = withLeaseFindings([key('lease: job, host there, pid 2')], now, facts);
    expect(elsewhere!.findings).toEqual(['info: lease held by pid 2 on there (not checkable from this host)']);
    const [revoked] = withLeaseFindings([key('lease: job, host here, pid 2', { revokedAt: '2026-01-01T00:10:00.000Z' })], now, facts);
    expect(revoked!.findings).toEqual([]);
    const [expired] = withLeaseFindings([key('lease: job, host here, pid 2')], new Date('2026-01-01T02:00:00.000Z'), facts);
    expect(expired!.findings).toEqual([]);
  });

  it('a live lease expiring in 10 minutes is no warning (it is short on purpose); the same lease whose process is gone is one', () => {
    const record = (name: string): KeyRecord =>
      ({
        id: 'k1',
        prefix: 'apk_AbCd1234',
        name,
        scopes: ['api:read'],
        createdAt: '2026-01-01T00:20:00.000Z',
        expiresAt: '2026-01-01T00:40:00.000Z',
        lastUsedAt: null,
        revokedAt: null,
      }) as KeyRecord;
    const limits = { warnMs: 14 * 86_400_000, unusedMs: 90 * 86_400_000 };
    const audit = (name: string) => withLeaseFindings(auditKeys([record(name)], now, limits, undefined), now, facts)[0]!;
    const live = audit('lease: job, host here, pid 1');
    expect(live.severity).toBe('ok');
    expect(live.findings).toEqual(['info: lease held by pid 1 on here (running)']);
    const gone = audit('lease: job, host here, pid 2');
    expect(gone.severity).toBe('warning');
    expect(gone.findings).toEqual([
      'warning: lease outlived its process (pid 2 on here is gone); revoke it: appraisal keys revoke apk_AbCd1234 --yes',
    ]);
    // Any other key that expires this soon is still a warning.
    expect(audit('ci deploy').findings).toEqual(['warning: expires in 10 minutes']);
  });
});
