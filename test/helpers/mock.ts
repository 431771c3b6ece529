// Starts `appraisal mock` as a real server on a free port (HTTPS unless http: true) and reads the
// eval-able lines it prints. Every e2e test runs against one of these.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN } from './spawn.js';
import { ROOT } from './env.js';

export interface MockServer {
  baseUrl: string;
  caFile: string | undefined;
  adminKey: string;
  /** Environment for runCli: base URL, CA file and the admin key. */
  env: Record<string, string>;
  process: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

export interface MockOptions {
  records?: number;
  seed?: number;
  latencyMs?: number;
  rateLimit?: number;
  http?: boolean;
  adminKey?: string;
  extraArgs?: string[];
  /** The program and its first arguments, instead of `node bin/appraisal.js` (an installed copy, the executable). */
  program?: readonly string[];
  /** Its environment (default: this process's). */
  env?: Record<string, string>;
}

export function startMock(options: MockOptions = {}): Promise<MockServer> {
  const [file, ...first] = options.program ?? [process.execPath, BIN];
  const args = [...first, 'mock', '--port', '0', '--seed', String(options.seed ?? 1), '--records', String(options.records ?? 50)];
  if (options.latencyMs !== undefined) args.push('--latency', String(options.latencyMs));
  if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
  if (options.http) args.push('--http');
  if (options.adminKey) args.push('--admin-key', options.adminKey);
  args.push(...(options.extraArgs ?? []));
  const child = spawn(file!, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const values: Record<string, string> = {};
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mock did not start in time; stderr: ${stderr}`));
    }, 30_000);
    child.on('exit', (code) => reject(new Error(`mock exited early with ${code}; stderr: ${stderr}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (!match) return;
      values[match[1]!] = match[2]!.replace(/^'(.*)'$/, '$1');
      const ready = values.APPRAISAL_BASE_URL && values.APPRAISAL_API_KEY && (options.http || values.APPRAISAL_CA_FILE);
      if (!ready) return;
      clearTimeout(timer);
      const env: Record<string, string> = {
        APPRAISAL_BASE_URL: values.APPRAISAL_BASE_URL!,
        APPRAISAL_API_KEY: values.APPRAISAL_API_KEY!,
      };
      if (values.APPRAISAL_CA_FILE) env.APPRAISAL_CA_FILE = values.APPRAISAL_CA_FILE;
      resolve({
        baseUrl: values.APPRAISAL_BASE_URL!,
        caFile: values.APPRAISAL_CA_FILE,
        adminKey: values.APPRAISAL_API_KEY!,
        env,
        process: child,
        stderr: () => stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      });
    });
  });
}
