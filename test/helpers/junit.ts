// JUnit reports as CI tools read them: validated against the Jenkins xUnit schema (vendored in
// test/fixtures/junit/, MIT) with xmllint, and parsed with a JUnit reader (junit2json).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse } from 'junit2json';
import { expect } from 'vitest';

export const JUNIT_XSD = fileURLToPath(new URL('../fixtures/junit/junit-10.xsd', import.meta.url));

/** xmllint's verdict on a report file: `ok` and its stderr (the schema errors, if any). */
export function validateJUnit(path: string): { ok: boolean; output: string } {
  const result = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, path], { encoding: 'utf8' });
  if (result.error) throw result.error;
  return { ok: result.status === 0, output: `${result.stderr}${result.stdout}` };
}

export interface ReadCase {
  name: string;
  time: number | undefined;
  status: 'pass' | 'fail' | 'skip';
  message: string | undefined;
  body: string | undefined;
}

/** Assert the report is valid against junit-10.xsd, then read its test cases as a JUnit reader does. */
export async function readValidJUnit(path: string, xml: string): Promise<{ suite: Record<string, unknown>; cases: ReadCase[] }> {
  const verdict = validateJUnit(path);
  expect(verdict.output).toMatch(/validates$/m);
  expect(verdict.ok, verdict.output).toBe(true);
  const parsed = (await parse(xml)) as { testsuite?: Array<Record<string, unknown>> };
  const suite = parsed.testsuite?.[0];
  expect(suite, 'one <testsuite>').toBeDefined();
  const cases = ((suite!.testcase ?? []) as Array<Record<string, unknown>>).map((c): ReadCase => {
    const failure = (c.failure as Array<{ message?: string; inner?: string }> | undefined)?.[0];
    const skipped = (c.skipped as Array<{ message?: string }> | undefined)?.[0];
    return {
      name: String(c.name),
      time: typeof c.time === 'number' ? c.time : undefined,
      status: failure ? 'fail' : skipped ? 'skip' : 'pass',
      message: failure?.message ?? skipped?.message,
      body: failure?.inner,
    };
  });
  return { suite: suite!, cases };
}
