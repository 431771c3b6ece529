// JUnit XML for CI dashboards (Jenkins, GitLab, GitHub test reporters): one <testsuite>, one
// <testcase> per check, <failure> and <skipped> as those tools expect, valid against the Jenkins
// xUnit schema junit-10.xsd (times in seconds). Written atomically.
import { writeFileAtomic } from '../../../core/atomic-file.js';
import { LocalEnvironmentError } from '../../../core/errors.js';

export interface JUnitCase {
  name: string;
  classname: string;
  /** Seconds. */
  time: number;
  status: 'pass' | 'fail' | 'skip';
  /** Failure or skip reason. */
  message?: string | undefined;
  /** Failure type (e.g. the error class). */
  type?: string | undefined;
  /** Longer text for the failure body or system-out. */
  detail?: string | undefined;
}

export interface JUnitSuite {
  name: string;
  timestamp: Date;
  /** Seconds. */
  time: number;
  properties?: Readonly<Record<string, string>>;
  cases: readonly JUnitCase[];
}

/** Characters XML 1.0 cannot carry at all (control characters other than tab, LF, CR). */
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(value: number): string {
  return (Math.max(0, value) || 0).toFixed(3);
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');
}

export function renderJUnit(suite: JUnitSuite): string {
  const failures = suite.cases.filter((c) => c.status === 'fail').length;
  const skipped = suite.cases.filter((c) => c.status === 'skip').length;
  const counts = { tests: suite.cases.length, failures, errors: 0 };
  const time = seconds(suite.time);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // junit-10.xsd (Jenkins xUnit, pytest) allows `skipped` on <testsuite> only: on <testsuites> the
  // plugin rejects the whole report.
  lines.push(`<testsuites${attrs({ name: suite.name, ...counts, time })}>`);
  lines.push(
    `  <testsuite${attrs({ name: suite.name, ...counts, skipped, time, timestamp: suite.timestamp.toISOString().replace(/\.\d+Z$/, 'Z') })}>`,
  );
  const properties = Object.entries(suite.properties ?? {});
  if (properties.length > 0) {
    lines.push('    <properties>');
    for (const [name, value] of properties) lines.push(`      <property${attrs({ name, value })}/>`);
    lines.push('    </properties>');
  }
  for (const testcase of suite.cases) {
    const open = `    <testcase${attrs({ name: testcase.name, classname: testcase.classname, time: seconds(testcase.time) })}`;
    if (testcase.status === 'pass' && !testcase.detail) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (testcase.status === 'fail') {
      const body = testcase.detail ? escapeXml(testcase.detail) : '';
      lines.push(`      <failure${attrs({ message: testcase.message ?? 'failed', type: testcase.type })}>${body}</failure>`);
    } else if (testcase.status === 'skip') {
      lines.push(`      <skipped${attrs({ message: testcase.message })}/>`);
    } else if (testcase.detail) {
      lines.push(`      <system-out>${escapeXml(testcase.detail)}</system-out>`);
    }
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>');
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** Write the report beside its final path and rename it into place: a dashboard never reads half a file. */
export async function writeJUnitReport(path: string, suite: JUnitSuite): Promise<void> {
  try {
    await writeFileAtomic(path, renderJUnit(suite), { mode: 0o644 });
  } catch (error) {
    throw new LocalEnvironmentError(`cannot write the JUnit report to ${path}: ${(error as Error).message}`, { cause: error });
  }
}
