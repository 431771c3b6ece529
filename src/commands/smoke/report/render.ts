// How a smoke run is shown: a table with timings on stderr for people, a JSON report on stdout for
// machines, and JUnit XML for CI dashboards.
import type { JUnitSuite } from './junit.js';
import type { CheckResult, FailureDetails } from '../checks/check.js';
import { safeText } from '../../../output/index.js';
import { detailLines } from './details.js';

export interface SmokeReport {
  ok: boolean;
  environment: string;
  profile: string;
  baseUrl: string;
  keyPrefix: string | null;
  startedAt: string;
  durationMs: number;
  summary: { passed: number; failed: number; skipped: number };
  checks: Array<{
    name: string;
    status: CheckResult['status'];
    ms: number;
    detail: string;
    errorType?: string;
    /** The latency budget it ran under, in ms. */
    budgetMs?: number;
    /** For failures: request, answer and a curl that reproduces it. */
    failure?: FailureDetails;
  }>;
}

export interface RunFacts {
  environment: string;
  profile: string;
  baseUrl: string;
  keyPrefix: string | undefined;
  startedAt: Date;
  durationMs: number;
}

/** The error's class for the JSON report (the error classes name themselves; see core/errors.ts). */
export function errorType(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  return error instanceof Error ? error.name : 'Error';
}

export function summarize(results: readonly CheckResult[]): SmokeReport['summary'] {
  return {
    passed: results.filter((r) => r.status === 'pass').length,
    failed: results.filter((r) => r.status === 'fail').length,
    skipped: results.filter((r) => r.status === 'skip').length,
  };
}

export function buildReport(results: readonly CheckResult[], facts: RunFacts): SmokeReport {
  const summary = summarize(results);
  return {
    ok: summary.failed === 0,
    environment: facts.environment,
    profile: facts.profile,
    baseUrl: facts.baseUrl,
    keyPrefix: facts.keyPrefix ?? null,
    startedAt: facts.startedAt.toISOString(),
    durationMs: Math.round(facts.durationMs),
    summary,
    checks: results.map((r) => {
      const type = r.status === 'fail' ? errorType(r.error) : undefined;
      return {
        name: r.name,
        status: r.status,
        ms: r.ms,
        detail: r.detail,
        ...(type ? { errorType: type } : {}),
        ...(r.budgetMs === undefined ? {} : { budgetMs: r.budgetMs }),
        ...(r.failure ? { failure: r.failure } : {}),
      };
    }),
  };
}

export function junitSuite(results: readonly CheckResult[], facts: RunFacts): JUnitSuite {
  return {
    name: 'appraisal smoke',
    timestamp: facts.startedAt,
    time: facts.durationMs / 1000,
    properties: {
      environment: facts.environment,
      profile: facts.profile,
      baseUrl: facts.baseUrl,
      ...(facts.keyPrefix ? { keyPrefix: facts.keyPrefix } : {}),
    },
    cases: results.map((r) => ({
      name: r.name,
      classname: `appraisal.smoke.${facts.environment}`,
      time: r.ms / 1000,
      status: r.status,
      message: r.status === 'pass' ? undefined : r.detail,
      type: r.status === 'fail' ? errorType(r.error) : undefined,
      detail: r.failure ? [r.detail, ...detailLines(r.failure, r.detail)].join('\n') : r.detail,
    })),
  };
}

function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms)} ms`;
}

const LABELS: Readonly<Record<CheckResult['status'], string>> = { pass: 'pass', fail: 'FAIL', skip: 'skip' };
const COLORS: Readonly<Record<CheckResult['status'], string>> = { pass: '\u001b[32m', fail: '\u001b[31m', skip: '\u001b[33m' };

/** One aligned row per check: name, result, time, detail. */
export function renderTable(results: readonly CheckResult[], options: { color: boolean; width?: number | undefined }): string {
  // Names too: a check may be named after an operation of the service's own description.
  const names = results.map((r) => safeText(r.name));
  const nameWidth = Math.max(5, ...names.map((name) => name.length));
  const timeWidth = Math.max(4, ...results.map((r) => formatMs(r.ms).length));
  const header = `${'CHECK'.padEnd(nameWidth)}  RESULT  ${'TIME'.padStart(timeWidth)}  DETAIL`;
  const lines = [header];
  results.forEach((r, index) => {
    const label = LABELS[r.status].padEnd(6);
    const shown = options.color ? `${COLORS[r.status]}${label}\u001b[0m` : label;
    const time = r.status === 'skip' ? '-'.padStart(timeWidth) : formatMs(r.ms).padStart(timeWidth);
    // Service text, shown as every table shows it (output/table.ts safeText, i.e. core/terminal-text.ts):
    // control characters visibly as U+FFFD, a line break as ↵, so a row stays one row.
    let detail = safeText(r.detail);
    const room = options.width === undefined ? undefined : options.width - (nameWidth + timeWidth + 14);
    if (room !== undefined && room > 20 && detail.length > room && r.status !== 'fail') detail = `${detail.slice(0, room - 1)}…`;
    lines.push(`${names[index]!.padEnd(nameWidth)}  ${shown}  ${time}  ${detail}`);
    // A failure's reproduction, indented under its row.
    for (const extra of r.failure ? detailLines(r.failure, r.detail) : [])
      lines.push(`${' '.repeat(nameWidth + timeWidth + 12)}${safeText(extra)}`);
  });
  return `${lines.join('\n')}\n`;
}

export function summaryLine(results: readonly CheckResult[], durationMs: number): string {
  const { passed, failed, skipped } = summarize(results);
  const total = results.length;
  const time = formatMs(durationMs);
  const skips = skipped > 0 ? `, ${skipped} skipped` : '';
  if (failed === 0) return `smoke: passed — ${passed} of ${total} checks passed${skips} in ${time}`;
  return `smoke: FAILED — ${failed} of ${total} checks failed, ${passed} passed${skips} in ${time}`;
}
