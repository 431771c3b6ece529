// The README's "try it without a service" recipe, run as the README writes it (the block is read from
// README.md, so the test follows the text), the two ways to wait for the mock it relies on:
// `--detach` (returns once listening) and `--write-env FILE` (the file appears, complete, once
// listening), and Ctrl-C stopping it. The mock as a process (what it serves and prints: mock/binary.test.ts).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { BIN, runCli } from '../helpers/spawn.js';
import { ROOT } from '../helpers/env.js';
import { waitFor } from '../helpers/wait.js';
import { tempDir } from '../helpers/temp.js';

const work = tempDir('mock-recipe-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The ```sh block that follows "Try it without a service" in README.md. */
function readmeRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('Try it without a service');
  expect(at, 'README.md has the "Try it without a service" recipe').toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  expect(block, 'the recipe is a ```sh block').not.toBeNull();
  return block![1]!;
}

/** Whether a process (not our child) is still alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Run a bash script with `appraisal` on PATH (as after `npm install -g`) in `cwd`; no APPRAISAL_* inherited. */
function runBash(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'appraisal'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'appraisal'), 0o755);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('APPRAISAL_') && !/_PROXY$/i.test(key)) env[key] = value;
  }
  env.PATH = `${bin}:${env.PATH ?? ''}`;
  env.HOME = cwd;
  env.APPRAISAL_CONFIG_DIR = join(cwd, 'config');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    // 'close': every holder of our pipes is gone, including a mock that failed to let go of them.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('README: try it without a service', () => {
  it('runs as written: the mock is waited for, the list prints 10 properties, kill stops the mock', async () => {
    const cwd = mkdtempSync(join(work, 'readme-'));
    // After the recipe the shell still holds what it sourced: print it, to check what the mock was.
    const shown =
      '\nprintf "APPRAISAL_%s\\n" "BASE_URL=$APPRAISAL_BASE_URL" "CA_FILE=$APPRAISAL_CA_FILE" "API_KEY=$APPRAISAL_API_KEY" "MOCK_PID=$APPRAISAL_MOCK_PID" >&2\n';
    const result = await runBash(`${readmeRecipe()}${shown}`, cwd);
    expect(result.code, result.stderr).toBe(0);
    // Not a terminal: JSON, ten records.
    const records = JSON.parse(result.stdout) as { id: string }[];
    expect(records).toHaveLength(10);
    for (const record of records) expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.stderr).not.toMatch(/error|no base URL/i);
    expect(result.stdout).not.toContain('APPRAISAL_API_KEY');
    const env = result.stderr;
    expect(env).toMatch(/^APPRAISAL_BASE_URL=https:\/\/127\.0\.0\.1:\d+$/m);
    expect(env).toMatch(/^APPRAISAL_CA_FILE=\S+$/m);
    expect(env).toMatch(/^APPRAISAL_API_KEY=apk_\w{8}_\w{32}$/m);
    const pid = Number(/^APPRAISAL_MOCK_PID=(\d+)$/m.exec(env)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // `kill` in the recipe stops it: gone, its generated CA directory removed with it.
    await waitFor(() => !alive(pid), `the mock (pid ${pid}) to stop`, 15_000);
    await waitFor(() => !existsSync(/^APPRAISAL_CA_FILE=(\S+)$/m.exec(env)![1]!), "the mock's CA file to be removed", 5_000);
    // The recipe's env file held the admin key: 0600 while it ran (the --write-env test), gone with the mock.
    await waitFor(() => !existsSync(join(cwd, 'mock.env')), 'mock.env to be removed with the mock', 5_000);
  });
});

describe('appraisal mock: ways to wait for it, and to stop it', () => {
  it('--write-env FILE: the file appears complete (mode 0600) once it listens, and is removed when it stops', async () => {
    const file = join(mkdtempSync(join(work, 'write-env-')), 'mock.env');
    const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--http', '--records', '5', '--write-env', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      // Atomic: whenever the file exists it is whole (never an empty or half-written file).
      await waitFor(() => existsSync(file), `${file} to appear`, 30_000);
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^APPRAISAL_BASE_URL=http:\/\/127\.0\.0\.1:\d+\nAPPRAISAL_API_KEY=apk_\w{8}_\w{32}\n$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const baseUrl = /^APPRAISAL_BASE_URL=(\S+)$/m.exec(text)![1]!;
      const key = /^APPRAISAL_API_KEY=(\S+)$/m.exec(text)![1]!;
      // It listens already: the CLI answers at once with the file's values.
      const list = await runCli(['props', 'list', '-o', 'ndjson'], { env: { APPRAISAL_BASE_URL: baseUrl, APPRAISAL_API_KEY: key } });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n')).toHaveLength(5);
      await waitFor(() => stdout.includes('APPRAISAL_API_KEY='), 'the same lines on stdout', 5_000);
      expect(stdout).toBe(text);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('--detach: returns once listening with the lines and APPRAISAL_MOCK_PID; a port in use is one error line, exit 2', async () => {
    // Every flag reaches the mock in the background (--description was once left behind).
    const started = await runCli(['mock', '--port', '0', '--http', '--records', '3', '--description', 'alternative', '--detach']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(
      /^APPRAISAL_BASE_URL=http:\/\/127\.0\.0\.1:\d+\nAPPRAISAL_API_KEY=apk_\w{8}_\w{32}\nAPPRAISAL_MOCK_PID=\d+\n$/,
    );
    const baseUrl = /^APPRAISAL_BASE_URL=(\S+)$/m.exec(started.stdout)![1]!;
    const key = /^APPRAISAL_API_KEY=(\S+)$/m.exec(started.stdout)![1]!;
    const pid = Number(/^APPRAISAL_MOCK_PID=(\d+)$/m.exec(started.stdout)![1]);
    try {
      // The admin key is shown once on stdout, never in full on stderr.
      expect(started.stderr).toContain(`kill ${pid}`);
      expect(started.stderr).not.toContain(key);
      const list = await runCli(['props', 'list', '-o', 'ndjson'], { env: { APPRAISAL_BASE_URL: baseUrl, APPRAISAL_API_KEY: key } });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n')).toHaveLength(3);
      const published = (await (await fetch(`${baseUrl}/api/v2/openapi.json`)).json()) as { info: { version: string } };
      expect(published.info.version).toBe('0.2.0-alternative');
      const port = new URL(baseUrl).port;
      const busy = await runCli(['mock', '--port', port, '--http', '--detach']);
      expect(busy.code).toBe(2);
      expect(busy.stdout).toBe('');
      expect(busy.stderr).toMatch(new RegExp(`^error: the mock: port ${port} on 127\\.0\\.0\\.1 is already in use`));
      expect(busy.stderr.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1);
      const logged = await runCli(['mock', '--port', '0', '--detach', '--log']);
      expect(logged.code).toBe(2);
      expect(logged.stderr).toBe('error: --log needs the mock in the foreground (drop --detach)\n');
    } finally {
      process.kill(pid, 'SIGTERM');
    }
    await waitFor(() => !alive(pid), `the detached mock (pid ${pid}) to stop`, 15_000);
  });

  it('stops promptly on Ctrl-C (SIGINT), closes its port and removes its temp dir', async () => {
    const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--records', '5'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    await expect.poll(() => /APPRAISAL_API_KEY=/.test(stdout), { timeout: 20_000 }).toBe(true);
    const caFile = /APPRAISAL_CA_FILE=(.*)/.exec(stdout)![1]!.replace(/^'(.*)'$/, '$1');
    const port = Number(/:(\d+)\s*$/m.exec(/APPRAISAL_BASE_URL=(.*)/.exec(stdout)![1]!)![1]);
    expect(existsSync(dirname(caFile))).toBe(true);
    const started = Date.now();
    child.kill('SIGINT');
    const { code, signal } = await exited;
    expect(Date.now() - started).toBeLessThan(3000);
    // It exits by itself (no signal death): Ctrl-C is how a server normally ends, so exit 0, no error.
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(stderr).not.toContain('error:');
    expect(stderr).toContain('appraisal mock: stopped');
    expect(existsSync(dirname(caFile))).toBe(false);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    expect(free).toBe(true);
  });

  it('--write-env into a directory that is not there: one line naming that path and why, not the temp file beside it', async () => {
    const path = join(work, 'no-such-dir', 'mock.env');
    const result = await run(['mock', '--port', '0', '--http', '--write-env', path]);
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: `error: cannot write --write-env ${path}: no such file or directory\n` });
  });

  it('--host that is no address of this machine: the hint is about the host, not the port', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine, and no resolver is asked.
    const result = await run(['mock', '--port', '0', '--http', '--host', '192.0.2.1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: cannot listen on host 192\.0\.2\.1: .*\nhint: pass --host an address of this machine: 127\.0\.0\.1 \(the default\) or ::1\n$/,
    );
  });
});
