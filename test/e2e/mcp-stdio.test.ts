// `appraisal mcp` as the process an assistant starts, for what only a process shows: SIGTERM ends it
// after revoking its leased key, and its stdout (a pipe) carries protocol messages and nothing else,
// even with -v. What it serves is mcp.test.ts's, in process.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, ROOT } from '../helpers/spawn.js';
import { adminOf, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;

beforeAll(async () => {
  mock = await startMock({ records: 30, http: true });
  admin = adminOf(mock);
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

function environment(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ PATH: process.env.PATH, ...isolatedEnv(), ...mock.env, ...extra })) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * The built server as a process: initialised, one tool call, then its stdin closed; what it wrote,
 * once it has exited (its second stdout line is the call's answer).
 */
async function callOnce(
  args: string[],
  call: { name: string; arguments: object },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd: ROOT, env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call });
  await expect.poll(() => stdout.split('\n').filter(Boolean).length, { timeout: 20_000 }).toBe(2);
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout, stderr };
}

describe('appraisal mcp as a process', () => {
  it('revokes a --lease key when the server gets SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--lease'], { cwd: ROOT, env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await expect.poll(() => /on leased key (apk_[A-Za-z0-9]+)/.exec(stderr)?.[1], { timeout: 20_000 }).toBeDefined();
    const prefix = /on leased key (apk_[A-Za-z0-9]+)/.exec(stderr)![1]!;
    expect((await admin.keyByPrefix(prefix))?.revokedAt ?? null).toBeNull();
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect((await admin.keyByPrefix(prefix))?.revokedAt).not.toBeNull();
    expect(stderr).toContain(`revoked leased key ${prefix}`);
  });

  it('writes nothing but protocol messages on stdout, even with -v', async () => {
    const { code, stdout, stderr } = await callOnce(['-v'], { name: 'props_list', arguments: { max_items: 2 } });
    expect(code).toBe(0);
    for (const line of stdout.split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toMatch(/serving \d+ read-only tools/);
  });

  it('serves the sql tool from the built CLI (DuckDB loaded from its vendor bundle inside a tool call)', async () => {
    const dir = tempDir('appraisal-mcp-sql-');
    const file = join(dir, 'org.duckdb');
    // Not spawnSync: the mock answers from this process.
    await promisify(execFile)(process.execPath, [BIN, 'sync', 'props', '--to', `duckdb:${file}`, '-q'], { env: environment() });
    const { code, stdout, stderr } = await callOnce(['--sql', `duckdb:${file}`], {
      name: 'sql',
      arguments: { statement: 'SELECT count(*) AS n FROM properties' },
    });
    expect(code, stderr).toBe(0);
    const answer = JSON.parse(stdout.split('\n').filter(Boolean)[1]!) as { result: { structuredContent: unknown; isError?: boolean } };
    expect(answer.result.isError, stdout).toBeFalsy();
    expect(answer.result.structuredContent).toEqual({ records: [{ n: 30 }], more: false });
  });
});
