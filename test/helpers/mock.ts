// The mock a command test runs against: src/mock's server started in this test process on a free
// port (HTTPS unless http: true), from the TypeScript sources, so no build is needed. A test that
// needs the mock as its own process (to stop it with a signal, to keep a CPU-bound page off the
// test's event loop, or to run an installed copy or the executable) starts it with `program`, or
// through bin/appraisal.js with test/helpers/spawn.ts's startMockProcess(); both read the eval-able
// lines `appraisal mock` prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { MockServerOptions } from '../../src/mock/index.js';
import { ROOT } from './env.js';

export interface MockServer {
  baseUrl: string;
  caFile: string | undefined;
  adminKey: string;
  /** Environment for runCli: base URL, CA file and the admin key. */
  env: Record<string, string>;
  /** The mock's own process, when it was started as one (`program`, startMockProcess()); else undefined. */
  process: ChildProcess | undefined;
  /** What the mock wrote on stderr (in process: its internal errors, as `appraisal mock` warns them). */
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
  /** Which API description it publishes (`appraisal mock --description`). */
  description?: 'standard' | 'alternative';
  /** Its clock this many seconds off the machine's (`--clock-offset`). */
  clockOffsetSeconds?: number;
  /** A fixed port (default a free one). */
  port?: number;
  /** `appraisal mock` flags; in process the ones startMockServer has an option for are understood. */
  extraArgs?: string[];
  /** Start the mock as this program and its first arguments (an installed copy, the executable). */
  program?: readonly string[];
  /** The environment of a spawned mock (default: this process's). */
  env?: Record<string, string>;
  /** In process only: the service model and description it serves (default the real ones). */
  model?: MockServerOptions['model'];
}

export function startMock(options: MockOptions = {}): Promise<MockServer> {
  if (options.program && options.model) throw new Error('startMock: a model is given to an in-process mock only');
  return options.program ? spawnMock(options.program, options) : inProcess(options);
}

// The `appraisal mock` flags a test passes in extraArgs, as startMockServer options.
const FLAG_OPTIONS: Record<string, (value: string, into: MockServerOptions) => void> = {
  '--port': (value, into) => (into.port = Number(value)),
  '--host': (value, into) => (into.host = value),
  '--records': (value, into) => (into.records = Number(value)),
  '--seed': (value, into) => (into.seed = Number(value)),
  '--latency': (value, into) => (into.latencyMs = Number(value)),
  '--rate-limit': (value, into) => (into.rateLimit = Number(value)),
  '--admin-key': (value, into) => (into.adminKey = value),
  '--description': (value, into) => (into.description = value as MockServerOptions['description']),
  '--clock-offset': (value, into) => (into.clockOffsetSeconds = Number(value)),
};

function serverOptions(options: MockOptions): MockServerOptions {
  const resolved: MockServerOptions = {
    port: options.port ?? 0,
    seed: options.seed ?? 1,
    records: options.records ?? 50,
    latencyMs: options.latencyMs,
    rateLimit: options.rateLimit,
    http: options.http,
    adminKey: options.adminKey,
    description: options.description,
    clockOffsetSeconds: options.clockOffsetSeconds,
    model: options.model,
  };
  const args = options.extraArgs ?? [];
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--http') resolved.http = true;
    else if (flag === '--prerender') resolved.prerender = true;
    else if (FLAG_OPTIONS[flag]) FLAG_OPTIONS[flag](inline ?? args[++i]!, resolved);
    else throw new Error(`startMock: ${flag} is not a flag an in-process mock takes (start it with startMockProcess())`);
  }
  return resolved;
}

async function inProcess(options: MockOptions): Promise<MockServer> {
  const { startMockServer } = await import('../../src/mock/index.js');
  let stderr = '';
  const server = await startMockServer({
    ...serverOptions(options),
    onInternalError: (error) =>
      (stderr += `warning: mock: internal error (answered 500): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  const env: Record<string, string> = { APPRAISAL_BASE_URL: server.baseUrl, APPRAISAL_API_KEY: server.adminKey };
  if (server.caFile) env.APPRAISAL_CA_FILE = server.caFile;
  return {
    baseUrl: server.baseUrl,
    caFile: server.caFile,
    adminKey: server.adminKey,
    env,
    process: undefined,
    stderr: () => stderr,
    stop: () => server.close(),
  };
}

/** `PROGRAM… mock` on a free port, ready once it printed its variables. */
export function spawnMock(program: readonly string[], options: Omit<MockOptions, 'program'> = {}): Promise<MockServer> {
  const [file, ...first] = program;
  const args = [
    ...first,
    'mock',
    '--port',
    String(options.port ?? 0),
    '--seed',
    String(options.seed ?? 1),
    '--records',
    String(options.records ?? 50),
  ];
  if (options.latencyMs !== undefined) args.push('--latency', String(options.latencyMs));
  if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
  if (options.http) args.push('--http');
  if (options.adminKey) args.push('--admin-key', options.adminKey);
  if (options.description) args.push('--description', options.description);
  if (options.clockOffsetSeconds !== undefined) args.push('--clock-offset', String(options.clockOffsetSeconds));
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
