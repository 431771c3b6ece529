// What every section measures with, made once per run by bench/run.mjs: the private environment
// (HOME, config dir, no proxies, no APPRAISAL_* of the caller), the CLI and curl as timed runs, the
// `node -e 0` floor, the Node floor scripts of bench/lib, the small mock shared by several sections,
// sampling helpers that keep the load sampler going, and the recorder's row writers. A section module
// gets this kit and its declared rows, and nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mockRequest, startMock } from './mock.mjs';
import { describeFailure, processCpuMs, runTimed } from './proc.mjs';
import { alternate } from './samples.mjs';

/** The environment every child gets: the caller's, minus anything that would change what is measured. */
function baseEnv(run) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('APPRAISAL_') || /^(https?|no|all)_proxy$/i.test(key)) continue;
    if (key === 'NODE_OPTIONS' || key === 'BENCH_MAXRSS_FILE' || key === 'CURL_HOME') continue;
    env[key] = value;
  }
  env.HOME = join(run, 'home');
  env.APPRAISAL_CONFIG_DIR = join(run, 'config');
  env.XDG_CONFIG_HOME = join(run, 'xdg');
  env.NO_COLOR = '1';
  return env;
}

export function which(tool) {
  const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/**
 * @param {object} o
 * @param {string} o.root the checkout (bench/lib floors, scripts)
 * @param {string} o.run the scratch directory of this run (home, config, outputs)
 * @param {string} o.bin the CLI under test; o.mockBin the CLI whose `mock` serves (this checkout's)
 * @param {string[]} o.nodeArgs extra node flags for the CLI under test (an experiment)
 * @param {object} o.size the sizes (lib/sizes.mjs), o.target every section's targets
 * @param {object} o.recorder lib/rows.mjs
 */
export function createKit({ root, run, bin, mockBin, nodeArgs, size, target, quick, keep, log, recorder }) {
  const NODE = process.execPath;
  const ENV = baseEnv(run);
  const CURL = which('curl');
  const details = {};

  function ensureOk(what, timedRun) {
    if (timedRun.code !== 0) throw new Error(`${what}: ${describeFailure(timedRun)}`);
    return timedRun;
  }

  /** `node bin/appraisal.js ARGS` against `mock` (when given). */
  function cli(args, { mock, stdout, rss = false, timeoutMs = 120_000, cwd = run } = {}) {
    return runTimed({
      cmd: NODE,
      args: [...nodeArgs, bin, ...args],
      env: { ...ENV, ...(mock?.env ?? {}) },
      cwd,
      stdout,
      rss,
      workDir: run,
      timeoutMs,
    });
  }

  /** The curl options every request shares: no ~/.curlrc, errors shown, fail on HTTP errors, the key from a file. */
  function curlBase(mock) {
    const headerFile = join(run, `curl-headers-${new URL(mock.baseUrl).port}.txt`);
    if (!existsSync(headerFile)) writeFileSync(headerFile, `x-api-key: ${mock.apiKey}\n`, { mode: 0o600 });
    return ['-q', '-sS', '--fail', ...(mock.caFile ? ['--cacert', mock.caFile] : []), '-H', `@${headerFile}`];
  }
  function curl(args, { stdout, rss = false, timeoutMs = 120_000 } = {}) {
    return runTimed({ cmd: CURL, args, env: ENV, cwd: run, stdout, rss, workDir: run, timeoutMs });
  }

  /** `node -e 0` as a timed run: the floor every start-up and single-request figure builds on. */
  const nodeBare = async () =>
    ensureOk('node -e 0', await runTimed({ cmd: NODE, args: ['-e', '0'], env: ENV, cwd: run, workDir: run, timeoutMs: 30_000 }));

  /** Run `body` and add the CPU time `mock` used meanwhile to its result (as mockCpuMs). */
  async function withMockCpu(mock, body) {
    const before = mock ? processCpuMs(mock.process.pid) : undefined;
    const result = await body();
    const after = mock ? processCpuMs(mock.process.pid) : undefined;
    return { ...result, mockCpuMs: before === undefined || after === undefined ? undefined : after - before };
  }

  /** Run a Node floor script (bench/lib) against `mock`; returns the timed run with its JSON output. */
  async function floorRun(mock, script, args, what) {
    const out = join(run, `${script}.out`);
    const timed = await withMockCpu(mock, async () =>
      ensureOk(
        what,
        await runTimed({
          cmd: NODE,
          args: [join(root, 'bench', 'lib', script), ...args],
          env: { ...ENV, ...mock.env },
          cwd: root,
          stdout: out,
          workDir: run,
          timeoutMs: 300_000,
        }),
      ),
    );
    return { ...timed, output: readFileSync(out, 'utf8') };
  }

  /** A mock of this checkout (`appraisal mock --port 0`, pre-rendered pages unless said otherwise). */
  const mock = (options) => startMock({ bin: mockBin, cwd: run, env: ENV, prerender: true, ...options });

  // The small mock serves the single-request, memory (small export), file, scan, install and doctor
  // benchmarks: started on first use, stopped at the end of the run.
  let smallMock;
  async function getSmallMock() {
    smallMock ??= await mock({ records: size.memSmall, seed: 1 });
    return smallMock;
  }

  /** The id of the small mock's first property (the single-request rows get it). */
  async function firstPropertyId(m) {
    const first = await mockRequest(m, 'GET', '/api/properties?page=1&limit=1');
    const id = first.body?.items?.[0]?.id;
    if (first.status !== 200 || typeof id !== 'string')
      throw new Error(`could not read a property id from the mock (status ${first.status})`);
    return id;
  }

  return {
    ROOT: root,
    RUN: run,
    NODE,
    BIN: bin,
    MOCK_BIN: mockBin,
    NODE_ARGS: nodeArgs,
    ENV,
    CURL,
    SIZE: size,
    TARGET: target,
    QUICK: quick,
    KEEP: keep,
    log,
    details,
    ensureOk,
    cli,
    curl,
    curlBase,
    nodeBare,
    withMockCpu,
    floorRun,
    mock,
    mockRequest,
    getSmallMock,
    firstPropertyId,
    stopSmallMock: async () => smallMock?.stop(),
    alternate: (variants, rounds, warmups, runOne) => alternate(variants, rounds, warmups, runOne, recorder.sampleLoad),
    sampleLoad: recorder.sampleLoad,
    targetRow: recorder.targetRow,
    infoRow: recorder.infoRow,
    notMeasured: recorder.notMeasured,
    detail: recorder.detail,
  };
}
