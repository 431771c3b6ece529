// `--query` (issue 16 §5): a JMESPath filter and projection applied record by record gives what jq
// gives over the whole exported array, in every format and with --out; --max-items counts after the
// filter; a bad expression is exit 2 with its position.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv } from '../helpers/env.js';
import { run } from '../helpers/run.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

const QUERY = "[?propertyType=='office'].{id: id, city: address.city}";
const JQ = '[.[] | select(.propertyType == "office") | {id: .id, city: .address.city}]';
let mock: MockServer;
let env: Record<string, string | undefined>;
let scratch: string;
/** What jq makes of the whole collection, exported without --query. */
let expected: Array<{ id: string; city: string }>;

const cli = (args: string[]) => run(args, { env });
const jq = (filter: string, input: string): string => execFileSync('jq', ['-c', filter], { input, encoding: 'utf8' });

beforeAll(async () => {
  mock = await startMock({ records: 600, seed: 9 });
  env = { ...isolatedEnv(), ...mock.env };
  scratch = tempDir('export-query-');
  const whole = await cli(['props', 'list', '-o', 'json', '--page-size', '100']);
  expect(whole.code).toBe(0);
  expected = JSON.parse(jq(JQ, whole.stdout)) as typeof expected;
  // The data has offices and others, so the filter is really tested.
  expect(expected.length).toBeGreaterThan(10);
  expect(expected.length).toBeLessThan(600);
});
afterAll(async () => {
  await mock?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('--query', () => {
  it('json, ndjson to --out and csv give what jq gives over the whole array', async () => {
    const json = await cli(['props', 'list', '-o', 'json', '--page-size', '50', '--query', QUERY]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(expected);

    const out = join(scratch, 'offices.ndjson');
    const ndjson = await cli(['props', 'list', '--out', out, '--page-size', '50', '--query', QUERY]);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stderr).toContain(`Wrote ${expected.length} properties to ${out}`);
    expect(readFileSync(out, 'utf8')).toBe(jq('.[]', JSON.stringify(expected)));

    const csv = await cli(['props', 'list', '-o', 'csv', '--query', QUERY]);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(['id,city', ...expected.map((r) => `${r.id},${r.city}`)].join('\r\n') + '\r\n');
  });

  it('--max-items counts the records the query gives', async () => {
    const result = await cli(['props', 'list', '-o', 'ndjson', '--page-size', '20', '--max-items', '7', '--query', QUERY]);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(expected.slice(0, 7));
  });

  it('a bad expression is exit 2 with its position; an expression over the whole list is refused', async () => {
    const bad = await cli(['props', 'list', '-o', 'json', '--query', "[?propertyType=='office'].{id: }"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: --query: syntax error at character 32: /);
    const whole = await cli(['props', 'list', '-o', 'json', '--query', 'sort_by(@, &name)[0]']);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toMatch(/^error: --query: the expression must filter or project each record on its own/);
  });
});

describe('tables that fit the terminal', () => {
  it('COLUMNS=80: no line over 80, one header for the whole list, dropped columns named with --wide', async () => {
    const fitted = await run(['props', 'list', '-o', 'table', '--page-size', '100'], { env: { ...env, COLUMNS: '80' } });
    expect(fitted.code).toBe(0);
    const lines = fitted.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(600 + 4);
    expect(Math.max(...lines.map((line) => Array.from(line).length))).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => /^│ id\s/.test(line))).toHaveLength(1);
    // Stable widths: every line as long as the first.
    expect(new Set(lines.map((line) => Array.from(line).length)).size).toBe(1);
    // The notice names what it can and fits the width itself (issue 25 §2); the id is never cut.
    expect(fitted.stderr).toMatch(/^Left out [\w., ]+ to fit \(--wide shows all\)\n$/);
    expect(Array.from(fitted.stderr.trimEnd()).length).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => /│ [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} │/.test(line))).toHaveLength(600);

    const wide = await run(['props', 'list', '-o', 'table', '--max-items', '3', '--wide'], { env: { ...env, COLUMNS: '80' } });
    expect(wide.code).toBe(0);
    expect(wide.stdout).toContain('updatedAt');
    expect(wide.stderr).toBe('');
  });

  it('--fields naming a field no record has warns; --out with an unknown extension is exit 2 unless -o', async () => {
    const fields = await cli(['props', 'list', '-o', 'csv', '--max-items', '2', '--fields', 'id,nosuch']);
    expect(fields.code).toBe(0);
    expect(fields.stderr).toBe('warning: --fields: no property has nosuch\n');
    const tsv = join(scratch, 'props.tsv');
    const refused = await cli(['props', 'list', '--out', tsv]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: --out .*props\.tsv: unknown extension \.tsv/);
    const explicit = await cli(['props', 'list', '--out', tsv, '-o', 'csv', '--max-items', '1']);
    expect(explicit.code).toBe(0);
    expect(readFileSync(tsv, 'utf8').split('\r\n')[0]).toBe(
      // A csv holds every field, in the published schema's order (issue 25 §1).
      'id,name,address.line1,address.line2,address.city,address.region,address.postalCode,address.country,propertyType,parcelNumber,yearBuilt,grossBuildingArea,landArea,latitude,longitude,createdAt,updatedAt',
    );
  });
});
