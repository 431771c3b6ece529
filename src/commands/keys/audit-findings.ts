// What `keys audit` finds wrong with each key, ranked by severity. Pure: the keys, the time and
// the thresholds in, the findings out — the command does the requests and the printing.
import { isLeaseName } from '../../core/credentials/lease-name.js';
import type { KeyRecord } from './records.js';
import { spanInWords, wholeDays } from '../../core/duration.js';

export const SEVERITIES = ['critical', 'warning', 'info', 'ok'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface AuditThresholds {
  /** Expiring within this is a warning (--warn, default 14d). */
  warnMs: number;
  /** Not used for this long is a warning (--unused, default 90d). */
  unusedMs: number;
}

export interface Finding {
  severity: Exclude<Severity, 'ok'>;
  text: string;
}

export interface AuditedKey {
  severity: Severity;
  prefix: string | null;
  name: string | null;
  scopes: string[];
  createdAt: string | null;
  expiresAt: string | null;
  /** Whole days until expiry (negative: days since); null when it never expires. */
  daysLeft: number | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The key this profile is using. */
  inUse: boolean;
  findings: string[];
  id: string;
}

function time(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function rank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export function findingsFor(key: KeyRecord, all: readonly KeyRecord[], now: Date, limits: AuditThresholds): Finding[] {
  if (time(key.revokedAt) !== undefined) return [];
  const findings: Finding[] = [];
  const nowMs = now.getTime();
  const expires = time(key.expiresAt);
  if (expires !== undefined && expires <= nowMs) {
    findings.push({ severity: 'critical', text: `expired ${spanInWords(nowMs - expires)} ago but not revoked` });
  } else if (expires !== undefined && expires - nowMs <= limits.warnMs) {
    // A lease is short on purpose: it is a finding only once it outlived its process (lease/lease-marks.ts).
    if (!isLeaseName(key.name)) findings.push({ severity: 'warning', text: `expires in ${spanInWords(expires - nowMs)}` });
  } else if (expires === undefined) {
    findings.push({ severity: 'warning', text: 'never expires' });
  }
  const lastUsed = time(key.lastUsedAt) ?? time(key.createdAt);
  if (lastUsed !== undefined && nowMs - lastUsed >= limits.unusedMs) {
    findings.push({
      severity: 'warning',
      text:
        time(key.lastUsedAt) === undefined
          ? `never used in ${spanInWords(nowMs - lastUsed)}`
          : `unused for ${spanInWords(nowMs - lastUsed)}`,
    });
  }
  if (Array.isArray(key.scopes) && key.scopes.includes('api:admin'))
    findings.push({ severity: 'warning', text: 'has the api:admin scope' });
  const name = typeof key.name === 'string' ? key.name : undefined;
  if (name !== undefined) {
    const twins = all.filter((other) => other.id !== key.id && other.name === name && time(other.revokedAt) === undefined).length;
    if (twins > 0) findings.push({ severity: 'info', text: `${twins + 1} active keys are named "${name}"` });
  }
  return findings.sort((a, b) => rank(a.severity) - rank(b.severity));
}

/** Every key with its findings, the worst first; the key in use is marked. */
export function auditKeys(keys: readonly KeyRecord[], now: Date, limits: AuditThresholds, inUsePrefix: string | undefined): AuditedKey[] {
  const audited = keys.map((key): AuditedKey => {
    const findings = findingsFor(key, keys, now, limits);
    const expires = time(key.expiresAt);
    return {
      severity: findings[0]?.severity ?? 'ok',
      prefix: typeof key.prefix === 'string' ? key.prefix : null,
      name: typeof key.name === 'string' ? key.name : null,
      scopes: Array.isArray(key.scopes) ? key.scopes.map(String) : [],
      createdAt: typeof key.createdAt === 'string' ? key.createdAt : null,
      expiresAt: typeof key.expiresAt === 'string' ? key.expiresAt : null,
      daysLeft: expires === undefined ? null : wholeDays(expires - now.getTime()),
      lastUsedAt: typeof key.lastUsedAt === 'string' ? key.lastUsedAt : null,
      revokedAt: typeof key.revokedAt === 'string' ? key.revokedAt : null,
      inUse: inUsePrefix !== undefined && key.prefix === inUsePrefix,
      findings: findings.map((finding) => `${finding.severity}: ${finding.text}`),
      id: key.id,
    };
  });
  // Worst first; revoked keys last.
  return audited.sort((a, b) => rank(a.severity) - rank(b.severity) || Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
}

/** How many keys have a finding at least as severe as `level`. */
export function countAtLeast(audited: readonly AuditedKey[], level: 'warning' | 'critical'): number {
  return audited.filter((key) => rank(key.severity) <= rank(level)).length;
}
