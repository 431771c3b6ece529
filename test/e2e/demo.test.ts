// `npm run demo` runs scripts/demo.sh after the build: a real session against the bundled mock.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/env.js';

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !key.startsWith('APPRAISAL_') && !/_PROXY$/i.test(key)) env[key] = value;
    }
    // No keychain: there is no Secret Service on this bus.
    env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent';
    const child = spawn('bash', [join(ROOT, 'scripts', 'demo.sh')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it('runs auth status, a table, an NDJSON export with its record count, an upload and two syncs against the mock', async () => {
    const result = await runDemo();
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    for (const heading of [
      '==> appraisal auth status',
      '==> appraisal props list --max-items 10 -o table',
      '==> appraisal props list -o ndjson',
      '==> appraisal files upload',
      '==> appraisal sync props assignments --to duckdb:org.duckdb',
      '==> appraisal sql "SELECT property_type, count(*) AS properties FROM properties',
    ]) {
      expect(out).toContain(heading);
    }
    expect(out).toContain('properties.ndjson: 1000 records');
    expect(out).toContain('inspection-report.pdf');
    // The first sync writes every record; the second finds nothing new since the first.
    expect(result.stderr).toMatch(/^properties: 1000 new, 0 changed, 0 unchanged, 0 gone \(full\)/m);
    expect(result.stderr).toMatch(/^properties: 0 new, 0 changed, \d+ unchanged, 0 gone \(incremental since /m);
    // The five largest property types as a table: a row each, the counts adding up to at most the 1,000 synced.
    const table = out.slice(out.indexOf('==> appraisal sql'), out.indexOf('==> done'));
    const byType = [...table.matchAll(/^│ ([a-z_]+) +│ (\d+) +│$/gm)].map((match) => Number(match[2]));
    expect(byType, table).toHaveLength(5);
    expect(byType.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(1000);
    expect([...byType].sort((a, b) => b - a)).toEqual(byType);
    expect(out).toContain('==> done: stopping the mock');
    // Nothing stray: the demo waits for the mock with --detach instead of grepping a file that the
    // background job may not have created yet ("grep: …/mock.out: No such file or directory").
    expect(result.stderr).not.toMatch(/grep:|No such file|error:/);
    expect(`${out}${result.stderr}`).not.toMatch(/apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{8,}/);
  }, 120_000);
});
