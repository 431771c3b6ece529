#!/usr/bin/env node
// `npm run bench`: the performance targets of issue 19, each a ratio measured in one run on one
// machine against a floor built from Node itself (or curl) run interleaved with the CLI: `node -e 0`,
// a bare undici client already running, a bare node:https request, the same download work written
// plainly, `curl -o … && sha256sum && sync`. Starts its own mocks (`appraisal mock --port 0
// --prerender`: pre-rendered pages, so the mock takes less of the CPU) and reports the mock's CPU time
// next to each figure; reports CPU time (user+sys of the child) next to every wall time, and the
// load average, flagging figures measured while it was above 1. Runs the built CLI as a user would
// (`node bin/appraisal.js ...`) with a private HOME, and writes bench/results.md and
// bench/results.json. Plain Node ESM so it needs no build of its own; not part of `npm test`.
// `node scripts/bench-readme.mjs` then copies the table into docs/PERFORMANCE.md.
//
//   node bench/run.mjs            full run (the figures the README quotes), about 3-5 minutes
//   node bench/run.mjs --quick    small sizes, to exercise the harness; writes bench/.work/partial/
//   --only startup,latency,export,memory,files,scan,install   run some sections (install: bench/install.mjs) (writes bench/.work/partial/)
//   --strict                      exit 1 when a target is missed (default: only when a run fails)
//   --keep                        keep bench/.work/run (outputs, the test file) for inspection
//   --node-arg=FLAG               run the CLI as `node FLAG bin/appraisal.js` (repeatable), to try an
//                                 idea without changing src/ (e.g. --node-arg=--max-semi-space-size=4;
//                                 a V8 flag the build did not set makes V8 reject the code cache)
//   --cli=PATH                    measure another build of the CLI (e.g. a patched copy's
//                                 bin/appraisal.js); the mocks still come from this checkout
//   (--node-arg and --cli are experiments: they write bench/.work/partial/, never bench/results.*)
//
// Exit code: 0 when every figure was measured (missed targets are reported, not failures), 1 when
// a run failed or a check did not hold (wrong record count, corrupted file), 130 on Ctrl-C.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { assertCount, assertSameFile, checkNdjson, checkPages, writeRandomFile } from './lib/check.mjs';
import { mockRequest, startMock } from './lib/mock.mjs';
import { describeFailure, killAll, median, processCpuMs, rssMethod, runTimed } from './lib/proc.mjs';
import { misses, resultsMarkdown, tableText } from './lib/report.mjs';
import { installPlanned, measureInstall } from './install.mjs';

const ROOT = join(import.meta.dirname, '..');
// The mocks always come from this checkout; the CLI under test may be another build (--cli).
const MOCK_BIN = join(ROOT, 'bin', 'appraisal.js');
const NODE = process.execPath;
const WORK = join(ROOT, 'bench', '.work');
const RUN = join(WORK, 'run');

// ---------------------------------------------------------------------------------------------
// Options and sizes

const argv = process.argv.slice(2);
function flagValue(name) {
  const at = argv.indexOf(name);
  if (at >= 0) return argv[at + 1];
  const inline = argv.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}
const SECTIONS = ['startup', 'latency', 'export', 'memory', 'files', 'scan', 'install'];
const QUICK = argv.includes('--quick');
const STRICT = argv.includes('--strict');
const KEEP = argv.includes('--keep');
const ONLY = flagValue('--only')
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const CLI_PATH = flagValue('--cli');
const BIN = CLI_PATH ? resolve(CLI_PATH) : MOCK_BIN;
const NODE_ARGS = argv.flatMap((a, i) =>
  a.startsWith('--node-arg=') ? [a.slice('--node-arg='.length)] : a === '--node-arg' ? [argv[i + 1]] : [],
);
if (argv.includes('--help') || argv.includes('-h')) {
  const lines = readFileSync(new URL(import.meta.url), 'utf8').split('\n');
  // The usage block of the header: from its first line to the blank comment line before "Exit code".
  process.stdout.write(
    lines
      .slice(1, lines.findIndex((l) => l.startsWith('// Exit code')) - 1)
      .map((l) => l.replace(/^\/\/ ?/, ''))
      .join('\n') + '\n',
  );
  process.exit(0);
}
for (const name of ONLY ?? []) {
  if (!SECTIONS.includes(name)) {
    process.stderr.write(`error: unknown section "${name}" (sections: ${SECTIONS.join(', ')})\n`);
    process.exit(2);
  }
}
const selected = (name) => !ONLY || ONLY.includes(name);
const PARTIAL = QUICK || ONLY !== undefined || NODE_ARGS.length > 0 || CLI_PATH !== undefined;
const OUT_DIR = PARTIAL ? join(WORK, 'partial') : join(ROOT, 'bench');

const MiB = 1 << 20;
const SIZE = QUICK
  ? {
      startupRuns: 5,
      latencyRuns: 5,
      warmups: 1,
      exportRecords: 2_000,
      exportReps: 1,
      memSmall: 2_000,
      memLarge: 20_000,
      memReps: 1,
      fileBytes: 16 * MiB,
      fileReps: 1,
      scanBytes: 8 * MiB,
      scanReps: 1,
    }
  : {
      startupRuns: 20,
      latencyRuns: 31,
      warmups: 2,
      exportRecords: 20_000,
      exportReps: 3,
      memSmall: 10_000,
      memLarge: 200_000,
      memReps: 2,
      fileBytes: 512 * MiB,
      fileReps: 3,
      scanBytes: 100 * MiB,
      scanReps: 3,
    };
const PAGE_SIZE = 100;
const LATENCY_MS = 20;
const CONCURRENCY = 8;

const TARGET = {
  startup: 1.25, // --version: x `node -e 0`
  help: 1.2, // props list --help: x `node -e 0`
  exportSpeedup: 5, // x faster than --concurrency 1
  exportFloor: 1.2, // x (`node -e 0` + the bare undici client already running)
  exportCpu: 1.5, // CPU per page, x the floor's
  memRatio: 1.2, // large / small peak RSS
  memPeakMiB: 100,
  filesPeakMiB: 150,
  uploadThroughput: 0.7, // x curl -F
  downloadThroughput: 0.9, // x (curl -o + sha256sum + sync)
  latency: 1.6, // x (node -e 0 + curl)
  featureOverhead: 1.1, // --query / resume checkpoints / contract validation: x the same export without
};
/** Above this 1-minute load average a figure is flagged: other work shared the cores. */
const BUSY_LOAD = 1;

// ---------------------------------------------------------------------------------------------
// Set-up: scratch directories, environment, tools

const began = process.hrtime.bigint();
const loadAtStart = os.loadavg()[0];
const CORES = os.availableParallelism?.() ?? os.cpus().length;
const log = (text) => process.stderr.write(`bench: ${text}\n`);
if (loadAtStart > CORES / 2) {
  log(`warning: load average ${loadAtStart.toFixed(1)} on ${CORES} cores: other work will make every figure noisier`);
}

rmSync(RUN, { recursive: true, force: true });
for (const dir of [RUN, join(RUN, 'home'), join(RUN, 'config'), join(RUN, 'xdg'), OUT_DIR]) mkdirSync(dir, { recursive: true });

let cleanedUp = false;
function cleanUp() {
  if (cleanedUp) return;
  cleanedUp = true;
  killAll();
  if (!KEEP) rmSync(RUN, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`interrupted (${signal}): stopping the mocks and removing bench/.work/run`);
    cleanUp();
    process.exit(130);
  });
}

/** The environment every child gets: the caller's, minus anything that would change what is measured. */
function baseEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('APPRAISAL_') || /^(https?|no|all)_proxy$/i.test(key)) continue;
    if (key === 'NODE_OPTIONS' || key === 'BENCH_MAXRSS_FILE' || key === 'CURL_HOME') continue;
    env[key] = value;
  }
  env.HOME = join(RUN, 'home');
  env.APPRAISAL_CONFIG_DIR = join(RUN, 'config');
  env.XDG_CONFIG_HOME = join(RUN, 'xdg');
  env.NO_COLOR = '1';
  return env;
}
const ENV = baseEnv();

function which(tool) {
  const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}
const CURL = which('curl');
const curlVersion = CURL
  ? spawnSync(CURL, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].split(' ').slice(0, 2).join(' ')
  : undefined;

if (!existsSync(join(ROOT, 'dist', 'cli.cjs')) || !existsSync(BIN)) {
  process.stderr.write('error: the CLI is not built\nhint: run `npm run bench` (it builds first) or `node scripts/build.mjs`\n');
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Helpers: running the CLI and curl, formatting, rows

/** `node bin/appraisal.js ARGS` against `mock` (when given). */
function cli(args, { mock, stdout, rss = false, timeoutMs = 120_000 } = {}) {
  return runTimed({
    cmd: NODE,
    args: [...NODE_ARGS, BIN, ...args],
    env: { ...ENV, ...(mock?.env ?? {}) },
    cwd: RUN,
    stdout,
    rss,
    workDir: RUN,
    timeoutMs,
  });
}

/** The curl options every request shares: no ~/.curlrc, errors shown, fail on HTTP errors, the key from a file. */
function curlBase(mock) {
  const headerFile = join(RUN, `curl-headers-${new URL(mock.baseUrl).port}.txt`);
  if (!existsSync(headerFile)) writeFileSync(headerFile, `x-api-key: ${mock.apiKey}\n`, { mode: 0o600 });
  return ['-q', '-sS', '--fail', ...(mock.caFile ? ['--cacert', mock.caFile] : []), '-H', `@${headerFile}`];
}
function curl(args, { stdout, rss = false, timeoutMs = 120_000 } = {}) {
  return runTimed({ cmd: CURL, args, env: ENV, cwd: RUN, stdout, rss, workDir: RUN, timeoutMs });
}

function ensureOk(what, run) {
  if (run.code !== 0) throw new Error(`${what}: ${describeFailure(run)}`);
  return run;
}

const r2 = (x) => x.toFixed(2);
const ms = (x) => (x < 100 ? `${x.toFixed(1)} ms` : `${Math.round(x)} ms`);
const sec = (x) => `${(x / 1000).toFixed(2)} s`;
const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
const int = (n) => n.toLocaleString('en-US');
const pct = (x) => `${Math.round(x * 100)}%`;

const rows = [];
const sections = [];
/** The 1-minute load average seen while the current section ran (highest of its samples). */
let sectionLoad = 0;
function sampleLoad() {
  sectionLoad = Math.max(sectionLoad, os.loadavg()[0]);
}
const cpuText = (x) => (x === undefined || Number.isNaN(x) ? 'n/a' : ms(x));
const details = {};
let failures = 0;

/** A row whose figure is compared with a target: `kind` max (value ≤ limit) or min (value ≥ limit). */
function targetRow({ id, benchmark, measured, cpu, target, value, limit, kind, why, unit = 'x' }) {
  const holds = kind === 'max' ? value <= limit : value >= limit;
  const u = (x) => (unit === 'x' ? `${r2(x)}x` : `${x.toFixed(1)}${unit}`);
  const gap =
    kind === 'max'
      ? `${u(value)} against at most ${u(limit)}: ${pct(value / limit - 1)} over the target`
      : `${u(value)} against at least ${u(limit)}: ${pct(1 - value / limit)} short of the target`;
  sampleLoad();
  rows.push({
    id,
    benchmark,
    measured,
    cpu,
    target,
    value,
    limit,
    kind,
    holds,
    gap,
    why,
    status: 'measured',
    load: Number(sectionLoad.toFixed(2)),
  });
}
function infoRow({ id, benchmark, measured, cpu, target = 'reference, no target', value }) {
  sampleLoad();
  rows.push({ id, benchmark, measured, cpu, target, value, holds: null, status: 'info', load: Number(sectionLoad.toFixed(2)) });
}

/**
 * Runs one section. `planned` lists the rows it should produce ({id, benchmark, target}); those it
 * did not produce because it failed are marked FAILED with the reason, never left out.
 */
async function section(name, planned, body) {
  if (!selected(name)) return;
  const started = Date.now();
  sectionLoad = 0;
  sampleLoad();
  const loadTimer = setInterval(sampleLoad, 2000);
  log(`${name}: start (load average ${os.loadavg()[0].toFixed(2)})`);
  try {
    await body();
  } catch (error) {
    failures++;
    const reason = String(error?.message ?? error)
      .split('\n')[0]
      .slice(0, 400);
    log(`${name}: FAILED: ${reason}`);
    for (const row of planned) {
      if (!rows.some((r) => r.id === row.id)) rows.push({ ...row, status: 'failed', reason, holds: false });
    }
  }
  clearInterval(loadTimer);
  log(`${name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s (highest load average ${sectionLoad.toFixed(2)})`);
}

function notMeasured(planned, reason) {
  for (const row of planned) rows.push({ ...row, status: 'not-measured', reason, holds: null });
}

// Runs `variants` round-robin `rounds` times after `warmups` untimed rounds, rotating the starting
// variant each round so no variant always runs first (or right after the same one).
// Each sample is {ms, cpuMs, mockCpuMs}: wall, the child's CPU, and the mock's CPU during the run.
async function alternate(variants, rounds, warmups, runOne) {
  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  for (let round = 0; round < warmups + rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(round + k) % variants.length];
      const run = await runOne(variant, round);
      if (round >= warmups) samples[variant.key].push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs });
    }
    sampleLoad();
  }
  return samples;
}

const wallOf = (list) => median(list.map((r) => r.ms));
const cpuOf = (list) => (list.some((r) => r.cpuMs === undefined) ? undefined : median(list.map((r) => r.cpuMs)));
const mockCpuOf = (list) => (list.some((r) => r.mockCpuMs === undefined) ? undefined : median(list.map((r) => r.mockCpuMs)));

/** Run `body` and add the CPU time `mock` used meanwhile to its result (as mockCpuMs). */
async function withMockCpu(mock, body) {
  const before = mock ? processCpuMs(mock.process.pid) : undefined;
  const run = await body();
  const after = mock ? processCpuMs(mock.process.pid) : undefined;
  return { ...run, mockCpuMs: before === undefined || after === undefined ? undefined : after - before };
}

function statsRow(label, samples, unit = ms) {
  const walls = samples.map((r) => r.ms);
  return [
    label,
    unit(median(walls)),
    unit(Math.min(...walls)),
    unit(Math.max(...walls)),
    cpuText(cpuOf(samples)),
    cpuText(mockCpuOf(samples)),
    String(samples.length),
  ];
}
const STATS_HEADER = ['command', 'median wall', 'min', 'max', 'CPU (median)', 'mock CPU (median)', 'runs'];

// ---------------------------------------------------------------------------------------------
// 1. Start-up

/** `node -e 0` as a timed run: the floor every start-up and single-request figure builds on. */
const nodeBare = async () =>
  ensureOk('node -e 0', await runTimed({ cmd: NODE, args: ['-e', '0'], env: ENV, cwd: RUN, workDir: RUN, timeoutMs: 30_000 }));

await section(
  'startup',
  [
    { id: 'startup-version', benchmark: 'Start-up: `appraisal --version`', target: `≤ ${TARGET.startup}x \`node -e 0\`` },
    { id: 'startup-help', benchmark: 'Start-up: `appraisal props list --help`', target: `≤ ${TARGET.help}x \`node -e 0\`` },
  ],
  async () => {
    const variants = [
      { key: 'node', label: '`node -e 0`', args: ['-e', '0'] },
      { key: 'version', label: '`appraisal --version`', args: [...NODE_ARGS, BIN, '--version'] },
      { key: 'help', label: '`appraisal props list --help`', args: [...NODE_ARGS, BIN, 'props', 'list', '--help'] },
    ];
    // Once with output kept: the commands must do what they claim, not fail fast.
    const helpOut = join(RUN, 'help.txt');
    ensureOk('props list --help', await cli(['props', 'list', '--help'], { stdout: helpOut }));
    if (!/--concurrency/.test(readFileSync(helpOut, 'utf8'))) throw new Error('`props list --help` does not show the list options');
    const versionOut = join(RUN, 'version.txt');
    ensureOk('--version', await cli(['--version'], { stdout: versionOut }));
    if (!/^\d+\.\d+\.\d+/.test(readFileSync(versionOut, 'utf8'))) throw new Error('`--version` did not print a version');

    const samples = await alternate(variants, SIZE.startupRuns, SIZE.warmups, async (variant) =>
      ensureOk(variant.label, await runTimed({ cmd: NODE, args: variant.args, env: ENV, cwd: RUN, workDir: RUN, timeoutMs: 30_000 })),
    );
    const base = wallOf(samples.node);
    details.startup = { samples };
    for (const [key, id, name, limit] of [
      ['version', 'startup-version', 'Start-up: `appraisal --version`', TARGET.startup],
      ['help', 'startup-help', 'Start-up: `appraisal props list --help`', TARGET.help],
    ]) {
      const value = wallOf(samples[key]) / base;
      targetRow({
        id,
        benchmark: name,
        measured: `${r2(value)}x (${ms(wallOf(samples[key]))} vs ${ms(base)})`,
        cpu: `${cpuText(cpuOf(samples[key]))} vs ${cpuText(cpuOf(samples.node))}`,
        target: `≤ ${limit}x \`node -e 0\``,
        value,
        limit,
        kind: 'max',
        why: `${ms(wallOf(samples[key]) - base)} above a bare Node start, against an allowance of ${ms(base * (limit - 1))}`,
      });
    }
    sections.push({
      title: '1. Start-up',
      about: `Median of ${SIZE.startupRuns} runs each (after ${SIZE.warmups} warm-up rounds), the three commands alternating; stdout to /dev/null. CPU is user+sys of the child (10 ms resolution).`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
);

// The small mock serves the single-request, memory (small export) and file benchmarks.
let smallMock;
async function getSmallMock() {
  smallMock ??= await startMock({ bin: MOCK_BIN, cwd: RUN, env: ENV, records: SIZE.memSmall, seed: 1, prerender: true });
  return smallMock;
}

/** Run a Node floor script (bench/lib) against `mock`; returns the timed run with its JSON output. */
async function floorRun(mock, script, args, what) {
  const out = join(RUN, `${script}.out`);
  const run = await withMockCpu(mock, async () =>
    ensureOk(
      what,
      await runTimed({
        cmd: NODE,
        args: [join(ROOT, 'bench', 'lib', script), ...args],
        env: { ...ENV, ...mock.env },
        cwd: ROOT,
        stdout: out,
        workDir: RUN,
        timeoutMs: 300_000,
      }),
    ),
  );
  return { ...run, output: readFileSync(out, 'utf8') };
}

// ---------------------------------------------------------------------------------------------
// 5. Single request latency (run early: it needs only the small mock)

const latencyPlanned = [
  {
    id: 'latency-get',
    benchmark: 'Single request: `appraisal props get ID`',
    target: `≤ ${TARGET.latency}x (\`node -e 0\` + one \`curl\`)`,
  },
  {
    id: 'latency-https',
    benchmark: 'Single request: `props get ID` vs a bare `node:https` request (a whole process)',
    target: 'reference, no target',
  },
  {
    id: 'latency-undici',
    benchmark: 'Single request: `props get ID` vs `node -e 0` + one request of a bare undici client already running',
    target: 'reference, no target',
  },
];
if (selected('latency') && !CURL) notMeasured(latencyPlanned, 'not measured (curl missing)');
else
  await section('latency', latencyPlanned, async () => {
    const mock = await getSmallMock();
    const first = await mockRequest(mock, 'GET', '/api/properties?page=1&limit=1');
    const id = first.body?.items?.[0]?.id;
    if (first.status !== 200 || typeof id !== 'string')
      throw new Error(`could not read a property id from the mock (status ${first.status})`);
    const path = `/api/properties/${encodeURIComponent(id)}`;
    const url = `${mock.baseUrl}${path}`;
    const getOut = join(RUN, 'get.json');
    const variants = [
      { key: 'node', label: '`node -e 0`' },
      { key: 'curl', label: '`curl` of the same URL' },
      { key: 'https', label: 'bare `node:https` request, one process (bench/lib/https-once.mjs)' },
      { key: 'undici', label: 'bare undici client already running: the request alone (bench/lib/floor.mjs get)' },
      { key: 'get', label: '`appraisal props get ID -o json`' },
    ];
    const checkRecord = (what, text) => {
      const record = JSON.parse(text);
      if (record?.id !== id) throw new Error(`${what} printed a record with id ${record?.id}, expected ${id}`);
    };
    const samples = await alternate(variants, SIZE.latencyRuns, SIZE.warmups, async (variant) => {
      if (variant.key === 'node') return nodeBare();
      if (variant.key === 'curl') return withMockCpu(mock, async () => ensureOk('curl', await curl([...curlBase(mock), url])));
      if (variant.key === 'https') {
        const run = await floorRun(mock, 'https-once.mjs', [path], 'node:https request');
        checkRecord('the node:https floor', run.output);
        return run;
      }
      if (variant.key === 'undici') {
        const run = await floorRun(mock, 'floor.mjs', ['get', path], 'undici request');
        const floor = JSON.parse(run.output);
        if (floor.records !== 1) throw new Error('the undici floor did not read the record');
        // The request alone: what a process already running pays.
        return { ms: floor.ms, cpuMs: floor.cpuMs, mockCpuMs: run.mockCpuMs };
      }
      const run = await withMockCpu(mock, async () =>
        ensureOk('props get', await cli(['props', 'get', id, '-o', 'json'], { mock, stdout: getOut })),
      );
      checkRecord('props get', readFileSync(getOut, 'utf8'));
      return run;
    });
    const get = wallOf(samples.get);
    const bound = wallOf(samples.node) + wallOf(samples.curl);
    const value = get / bound;
    details.latency = { url: url.replace(id, 'ID'), samples };
    const plus = (a, b) => (a === undefined || b === undefined ? undefined : a + b);
    targetRow({
      ...latencyPlanned[0],
      measured: `${r2(value)}x (${ms(get)} vs ${ms(wallOf(samples.node))} + ${ms(wallOf(samples.curl))})`,
      cpu: `${cpuText(cpuOf(samples.get))} vs ${cpuText(plus(cpuOf(samples.node), cpuOf(samples.curl)))}`,
      value,
      limit: TARGET.latency,
      kind: 'max',
      why: `${ms(get - bound)} above \`node -e 0\` + curl`,
    });
    infoRow({
      ...latencyPlanned[1],
      measured: `${r2(get / wallOf(samples.https))}x (${ms(get)} vs ${ms(wallOf(samples.https))})`,
      cpu: `${cpuText(cpuOf(samples.get))} vs ${cpuText(cpuOf(samples.https))}`,
      value: get / wallOf(samples.https),
    });
    const undiciFloor = wallOf(samples.node) + wallOf(samples.undici);
    infoRow({
      ...latencyPlanned[2],
      measured: `${r2(get / undiciFloor)}x (${ms(get)} vs ${ms(wallOf(samples.node))} + ${ms(wallOf(samples.undici))})`,
      cpu: `${cpuText(cpuOf(samples.get))} vs ${cpuText(plus(cpuOf(samples.node), cpuOf(samples.undici)))}`,
      value: get / undiciFloor,
    });
    sections.push({
      title: '5. Single request latency',
      about: `\`props get ID\` against a mock without added latency (HTTPS, ${int(SIZE.memSmall)} records); median of ${SIZE.latencyRuns} runs each, alternating. Every \`props get\` and node:https output is checked to be the requested record. The undici row is the request alone inside a running process (connection and TLS handshake included).`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  });

// ---------------------------------------------------------------------------------------------
// 2. Export throughput

const exportPlanned = [
  {
    id: 'export-floor',
    benchmark: `Export ${int(SIZE.exportRecords)} records, concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency: CLI vs \`node -e 0\` + the bare undici floor`,
    target: `≤ ${TARGET.exportFloor}x`,
  },
  {
    id: 'export-cpu',
    benchmark: `Export ${int(SIZE.exportRecords)} records: CPU time per page, CLI vs floor`,
    target: `≤ ${TARGET.exportCpu}x`,
  },
  {
    id: 'export-speedup',
    benchmark: `Export ${int(SIZE.exportRecords)} records: \`--concurrency ${CONCURRENCY}\` vs \`--concurrency 1\``,
    target: `≥ ${TARGET.exportSpeedup}x faster`,
  },
  {
    id: 'export-bound',
    benchmark: `Export ${int(SIZE.exportRecords)} records: \`--concurrency ${CONCURRENCY}\` vs the latency bound`,
    target: 'reference, no target',
  },
  {
    id: 'export-curl',
    benchmark: `Export ${int(SIZE.exportRecords)} records: \`--concurrency ${CONCURRENCY}\` vs sequential \`curl\` loop`,
    target: 'reference, no target',
  },
];
await section('export', exportPlanned, async () => {
  const mock = await startMock({
    bin: MOCK_BIN,
    cwd: RUN,
    env: ENV,
    records: SIZE.exportRecords,
    seed: 2,
    latency: LATENCY_MS,
    prerender: true,
  });
  try {
    const N = SIZE.exportRecords;
    const pages = Math.ceil(N / PAGE_SIZE);
    const boundMs = (pages / CONCURRENCY) * LATENCY_MS;
    const out = join(RUN, 'export.ndjson');
    const pageDir = join(RUN, 'pages');
    const samples = { c8: [], c1: [], curl: [], floor: [], floorProcess: [], node: [] };
    const listArgs = (c) => ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE), '--concurrency', String(c)];
    const curlLoop = [
      'set -e',
      'for ((i = 1; i <= PAGES; i++)); do',
      '  "$CURL" "${CURL_OPTS[@]}" "$BASE/api/properties?page=$i&limit=$LIMIT" -o "$DIR/page-$i.json"',
      'done',
    ].join('\n');
    const keep = (list, run) => list.push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs });
    const steps = [
      async () => {
        const run = await withMockCpu(mock, async () =>
          ensureOk(`props list --concurrency ${CONCURRENCY}`, await cli(listArgs(CONCURRENCY), { mock, stdout: out })),
        );
        assertCount(`props list --concurrency ${CONCURRENCY}`, await checkNdjson(out), N);
        keep(samples.c8, run);
      },
      async () => keep(samples.node, await nodeBare()),
      async () => {
        // The floor: the same requests from a process already running (its start-up is `node -e 0`'s).
        const run = await floorRun(
          mock,
          'floor.mjs',
          ['export', String(CONCURRENCY), String(pages), String(PAGE_SIZE)],
          'bare undici client',
        );
        const floor = JSON.parse(run.output);
        if (floor.records !== N) throw new Error(`bare undici client: expected ${N} records, got ${floor.records}`);
        samples.floor.push({ ms: floor.ms, cpuMs: floor.cpuMs, mockCpuMs: run.mockCpuMs });
        keep(samples.floorProcess, run);
      },
      async () => {
        const run = await withMockCpu(mock, async () =>
          ensureOk('props list --concurrency 1', await cli(listArgs(1), { mock, stdout: out })),
        );
        assertCount('props list --concurrency 1', await checkNdjson(out), N);
        keep(samples.c1, run);
      },
      async () => {
        if (!CURL) return;
        rmSync(pageDir, { recursive: true, force: true });
        mkdirSync(pageDir);
        // The options go through an array so the script stays a plain loop; the key is read from a file.
        const script = `CURL_OPTS=(${curlBase(mock)
          .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
          .join(' ')})\nPAGES=${pages}\n${curlLoop}`;
        const run = await withMockCpu(mock, async () =>
          ensureOk(
            'curl loop',
            await runTimed({
              cmd: 'bash',
              args: ['-c', script],
              env: { ...ENV, CURL, BASE: mock.baseUrl, LIMIT: String(PAGE_SIZE), DIR: pageDir },
              cwd: RUN,
              workDir: RUN,
              timeoutMs: 300_000,
            }),
          ),
        );
        assertCount('curl loop', checkPages(readdirSync(pageDir).map((f) => join(pageDir, f))), N);
        keep(samples.curl, run);
      },
    ];
    for (let rep = 0; rep < SIZE.exportReps; rep++) {
      for (let k = 0; k < steps.length; k++) await steps[(rep + k) % steps.length]();
      sampleLoad();
      log(`export: round ${rep + 1}/${SIZE.exportReps}`);
    }
    rmSync(out, { force: true });
    rmSync(pageDir, { recursive: true, force: true });
    const c8 = wallOf(samples.c8);
    const c1 = wallOf(samples.c1);
    const node0 = wallOf(samples.node);
    const fl = wallOf(samples.floor);
    details.export = {
      records: N,
      pages,
      pageSize: PAGE_SIZE,
      latencyMs: LATENCY_MS,
      concurrency: CONCURRENCY,
      boundMs,
      mockStartMs: mock.startMs,
      samples,
    };
    targetRow({
      ...exportPlanned[0],
      measured: `${r2(c8 / (node0 + fl))}x (${sec(c8)} vs ${ms(node0)} + ${sec(fl)})`,
      cpu: `${cpuText(cpuOf(samples.c8))} vs ${cpuText(cpuOf(samples.floorProcess))}; mock ${cpuText(mockCpuOf(samples.c8))} vs ${cpuText(mockCpuOf(samples.floorProcess))}`,
      value: c8 / (node0 + fl),
      limit: TARGET.exportFloor,
      kind: 'max',
      why: `the CLI takes ${ms(c8 - node0 - fl)} more than a bare Node start plus the bare client's requests`,
    });
    // CPU per page: the CLI's whole process against the floor's whole process (one Node start each).
    const cliCpu = cpuOf(samples.c8);
    const floorCpu = cpuOf(samples.floorProcess);
    if (cliCpu === undefined || floorCpu === undefined) notMeasured([exportPlanned[1]], 'CPU time could not be read (no GNU time)');
    else
      targetRow({
        ...exportPlanned[1],
        measured: `${r2(cliCpu / floorCpu)}x (${(cliCpu / pages).toFixed(2)} vs ${(floorCpu / pages).toFixed(2)} ms per page)`,
        cpu: `${cpuText(cliCpu)} vs ${cpuText(floorCpu)} per export`,
        value: cliCpu / floorCpu,
        limit: TARGET.exportCpu,
        kind: 'max',
        why: `${ms(cliCpu - floorCpu)} more CPU per export than the bare client's process`,
      });
    targetRow({
      ...exportPlanned[2],
      measured: `${r2(c1 / c8)}x faster (${sec(c8)} vs ${sec(c1)})`,
      cpu: `${cpuText(cpuOf(samples.c8))} vs ${cpuText(cpuOf(samples.c1))}`,
      value: c1 / c8,
      limit: TARGET.exportSpeedup,
      kind: 'min',
      why: `\`--concurrency ${CONCURRENCY}\` takes ${sec(c8)} where ${pages} pages in rounds of ${CONCURRENCY} need ${sec(boundMs)} of latency`,
    });
    infoRow({
      ...exportPlanned[3],
      measured: `${r2(c8 / boundMs)}x (${sec(c8)} vs ${pages} pages ÷ ${CONCURRENCY} × ${LATENCY_MS} ms = ${sec(boundMs)}); the bare client alone: ${r2(fl / boundMs)}x`,
      value: c8 / boundMs,
    });
    if (CURL) {
      const cu = wallOf(samples.curl);
      infoRow({
        ...exportPlanned[4],
        measured: `${r2(cu / c8)}x faster (${sec(c8)} vs ${sec(cu)})`,
        cpu: `${cpuText(cpuOf(samples.c8))} vs ${cpuText(cpuOf(samples.curl))}`,
        value: cu / c8,
      });
    } else notMeasured([exportPlanned[4]], 'not measured (curl missing)');
    const rate = (t) => `${int(Math.round(N / (t / 1000)))} records/s`;
    const line = (label, list) => [
      label,
      sec(wallOf(list)),
      rate(wallOf(list)),
      cpuText(cpuOf(list)),
      cpuText(mockCpuOf(list)),
      list.map((r) => sec(r.ms)).join(', '),
    ];
    sections.push({
      title: '2. Export throughput',
      about:
        `${int(N)} properties from \`appraisal mock --latency ${LATENCY_MS} --prerender\` over HTTPS, page size ${PAGE_SIZE} (${pages} pages), NDJSON to a file; ` +
        `median of ${SIZE.exportReps} run(s) each, the variants alternating. Every output is checked: exactly ${int(N)} lines, ${int(N)} distinct ids, every line valid JSON. ` +
        'CPU is the child process (user+sys); mock CPU is what the mock used during that run.',
      table: {
        header: ['command', 'median wall', 'throughput', 'CPU (median)', 'mock CPU (median)', 'runs'],
        rows: [
          line(`\`props list -o ndjson --concurrency ${CONCURRENCY}\``, samples.c8),
          line('`props list -o ndjson --concurrency 1`', samples.c1),
          line('`node -e 0`', samples.node),
          line(`bare undici client already running, concurrency ${CONCURRENCY}: the requests alone (bench/lib/floor.mjs)`, samples.floor),
          line('the same bare undici client as a whole process', samples.floorProcess),
          ...(CURL ? [line('sequential `curl` loop, one process per page', samples.curl)] : []),
        ],
      },
      notes: [
        `Latency bound: ${pages} pages ÷ ${CONCURRENCY} × ${LATENCY_MS} ms = ${sec(boundMs)} (a reference: on two cores the bare client alone is above it).`,
        `The mock took ${sec(mock.startMs)} to start with ${int(N)} records.`,
      ],
    });
    await featureRows(mock, N, listArgs(CONCURRENCY), c8, samples.c8, out);
  } finally {
    await mock.stop();
  }
});

/**
 * Other issues' features, each against the same export without it (≤ 10% over): measured when this
 * build has the feature, reported as not measured otherwise.
 */
async function featureRows(mock, n, baseArgs, baseMs, baseSamples, out) {
  const helpOut = join(RUN, 'list-help.txt');
  ensureOk('props list --help', await cli(['props', 'list', '--help'], { stdout: helpOut }));
  const help = readFileSync(helpOut, 'utf8');
  const features = [
    // Every record kept: the cost of evaluating the expression, same output.
    { id: 'feature-query', name: '`--query "[*]"`', flag: '--query', args: ['--query', '[*]'] },
    // --out keeps a partial file and fsyncs a checkpoint every 500 ms (then the file itself), against
    // the same export to stdout redirected to a file.
    { id: 'feature-resume', name: 'resume checkpoints (`--out`)', flag: '--resume', args: ['--out', join(RUN, 'checkpointed.ndjson')] },
    { id: 'feature-contract', name: 'contract validation (`--validate`)', flag: '--validate', args: ['--validate'] },
  ];
  for (const feature of features) {
    const row = {
      id: feature.id,
      benchmark: `Export ${int(n)} records with ${feature.name} vs the same export without it`,
      target: `≤ ${Math.round((TARGET.featureOverhead - 1) * 100)}% over`,
    };
    if (!help.includes(feature.flag)) {
      notMeasured([row], `not measured: \`props list\` has no ${feature.flag} in this build`);
      continue;
    }
    if (!feature.args) {
      notMeasured([row], `not measured: ${feature.flag} exists but the bench does not know how to run it yet`);
      continue;
    }
    const runs = [];
    for (let rep = 0; rep < SIZE.exportReps; rep++) {
      const run = await withMockCpu(mock, async () => await cli([...baseArgs, ...feature.args], { mock, stdout: out }));
      if (run.code !== 0) {
        notMeasured([row], `not measured: \`props list ${feature.args.join(' ')}\` failed: ${describeFailure(run)}`);
        runs.length = 0;
        break;
      }
      runs.push(run);
    }
    if (runs.length === 0) continue;
    const value = wallOf(runs) / baseMs;
    targetRow({
      ...row,
      measured: `${pct(value - 1)} over (${sec(wallOf(runs))} vs ${sec(baseMs)})`,
      cpu: `${cpuText(cpuOf(runs))} vs ${cpuText(cpuOf(baseSamples))}`,
      value,
      limit: TARGET.featureOverhead,
      kind: 'max',
      why: `${feature.name} adds ${ms(wallOf(runs) - baseMs)}`,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Memory

const memPlanned = [
  {
    id: 'memory-ratio',
    benchmark: `Memory: peak RSS, NDJSON export of ${int(SIZE.memLarge)} vs ${int(SIZE.memSmall)} records`,
    target: `≤ ${TARGET.memRatio}x`,
  },
  { id: 'memory-peak', benchmark: `Memory: peak RSS of the ${int(SIZE.memLarge)}-record export`, target: `< ${TARGET.memPeakMiB} MiB` },
  {
    id: 'memory-query',
    benchmark: `Memory: peak RSS of the ${int(SIZE.memLarge)}-record export with \`--query\` (filter + projection)`,
    target: `< ${TARGET.memPeakMiB} MiB`,
  },
];
await section('memory', memPlanned, async () => {
  const small = await getSmallMock();
  const large = await startMock({
    bin: MOCK_BIN,
    cwd: RUN,
    env: ENV,
    records: SIZE.memLarge,
    seed: 3,
    prerender: true,
    startTimeoutMs: 300_000,
  });
  try {
    const out = join(RUN, 'memory.ndjson');
    const args = ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE)];
    const runs = { small: [], large: [] };
    for (let rep = 0; rep < SIZE.memReps; rep++) {
      for (const [key, mock, n] of [
        ['small', small, SIZE.memSmall],
        ['large', large, SIZE.memLarge],
      ]) {
        const run = await withMockCpu(mock, async () =>
          ensureOk(`export of ${n} records`, await cli(args, { mock, stdout: out, rss: true, timeoutMs: 300_000 })),
        );
        assertCount(`export of ${n} records`, await checkNdjson(out), n);
        if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
        runs[key].push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs, rssKiB: run.rssKiB });
      }
      sampleLoad();
      log(`memory: round ${rep + 1}/${SIZE.memReps}`);
    }
    await queryMemoryRow(large, out);
    rmSync(out, { force: true });
    const peak = (list) => Math.max(...list.map((r) => r.rssKiB));
    const pSmall = peak(runs.small);
    const pLarge = peak(runs.large);
    details.memory = { small: SIZE.memSmall, large: SIZE.memLarge, largeMockStartMs: large.startMs, runs };
    targetRow({
      ...memPlanned[0],
      measured: `${r2(pLarge / pSmall)}x (${mib(pLarge)} vs ${mib(pSmall)})`,
      cpu: `${cpuText(cpuOf(runs.large))} vs ${cpuText(cpuOf(runs.small))}`,
      value: pLarge / pSmall,
      limit: TARGET.memRatio,
      kind: 'max',
      why: `the ${int(SIZE.memLarge)}-record export peaks ${mib(pLarge - pSmall)} higher than the ${int(SIZE.memSmall)}-record one`,
    });
    const worst = Math.max(pLarge, pSmall) / 1024;
    targetRow({
      ...memPlanned[1],
      measured: `${mib(pLarge)} (the ${int(SIZE.memSmall)}-record export: ${mib(pSmall)})`,
      cpu: cpuText(cpuOf(runs.large)),
      value: worst,
      limit: TARGET.memPeakMiB,
      kind: 'max',
      unit: ' MiB',
      why: `${mib(Math.max(pLarge, pSmall))} at peak`,
    });
    const line = (n, list) => [
      `${int(n)} records`,
      list.map((r) => mib(r.rssKiB)).join(', '),
      list.map((r) => sec(r.ms)).join(', '),
      list.map((r) => cpuText(r.cpuMs)).join(', '),
      `${int(Math.round(n / (wallOf(list) / 1000)))} records/s`,
    ];
    sections.push({
      title: '3. Memory',
      about: `\`props list -o ndjson --page-size ${PAGE_SIZE}\` (default concurrency) to a file, against mocks without added latency (pre-rendered pages); peak RSS is the highest of ${SIZE.memReps} run(s). Record counts checked every run.`,
      table: {
        header: ['export', 'peak RSS per run', 'wall time per run', 'CPU per run', 'throughput (median)'],
        rows: [line(SIZE.memSmall, runs.small), line(SIZE.memLarge, runs.large)],
      },
      notes: [`The ${int(SIZE.memLarge)}-record mock took ${sec(large.startMs)} to start.`],
    });
  } finally {
    await large.stop();
  }
});

/** Peak RSS of the large export through `--query`: evaluated record by record, memory stays flat. */
async function queryMemoryRow(mock, out) {
  const query = "[?propertyType=='office'].{id: id, city: address.city}";
  const args = ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE), '--query', query];
  const run = ensureOk(`--query export of ${SIZE.memLarge} records`, await cli(args, { mock, stdout: out, rss: true, timeoutMs: 300_000 }));
  if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
  const results = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
  if (results === 0) throw new Error('the --query export gave no records');
  details.memoryQuery = { records: SIZE.memLarge, results, rssKiB: run.rssKiB, ms: run.ms, cpuMs: run.cpuMs };
  targetRow({
    ...memPlanned[2],
    measured: `${mib(run.rssKiB)} (${int(results)} of ${int(SIZE.memLarge)} records kept, ${sec(run.ms)})`,
    cpu: cpuText(run.cpuMs),
    value: run.rssKiB / 1024,
    limit: TARGET.memPeakMiB,
    kind: 'max',
    unit: ' MiB',
    why: `${mib(run.rssKiB)} at peak`,
  });
}

// ---------------------------------------------------------------------------------------------
// 4. Upload and download

const sizeText = `${SIZE.fileBytes / MiB} MiB`;
const filesPlanned = [
  { id: 'upload-rss', benchmark: `Upload ${sizeText}: peak RSS of \`files upload\``, target: `< ${TARGET.filesPeakMiB} MiB` },
  { id: 'upload-throughput', benchmark: `Upload ${sizeText}: throughput vs \`curl -F\``, target: `≥ ${TARGET.uploadThroughput}x curl` },
  { id: 'download-rss', benchmark: `Download ${sizeText}: peak RSS of \`files download\``, target: `< ${TARGET.filesPeakMiB} MiB` },
  {
    id: 'download-throughput',
    benchmark: `Download ${sizeText}: throughput vs \`curl -o … && sha256sum && sync\``,
    target: `≥ ${TARGET.downloadThroughput}x`,
  },
  {
    id: 'download-node',
    benchmark: `Download ${sizeText}: throughput vs the same socket→file copy in plain Node (sha256, fsync)`,
    target: 'reference, no target',
  },
  {
    id: 'download-curl',
    benchmark: `Download ${sizeText}: throughput vs \`curl -o\` alone (no hash, no sync)`,
    target: 'reference, no target',
  },
];
await section('files', filesPlanned, async () => {
  const mock = await getSmallMock();
  const bytes = SIZE.fileBytes;
  const blob = join(RUN, 'upload.bin');
  log(`files: writing ${sizeText} of random bytes`);
  const sha256 = writeRandomFile(blob, bytes);
  const out = join(RUN, 'download.bin');
  const upOut = join(RUN, 'upload.json');
  const runs = { cliUp: [], curlUp: [], cliDown: [], curlDown: [], curlHashSync: [], nodeDown: [] };
  let downloadId;
  const dispose = async (id) => {
    if (downloadId === undefined) downloadId = id;
    else await mockRequest(mock, 'DELETE', `/api/files/${encodeURIComponent(id)}`);
  };
  const checkUploaded = (what, record) => {
    if (typeof record?.id !== 'string') throw new Error(`${what}: the answer holds no file id`);
    if (record.size !== undefined && record.size !== bytes)
      throw new Error(`${what}: the service stored ${record.size} bytes, expected ${bytes}`);
    if (record.sha256 !== undefined && record.sha256 !== sha256) throw new Error(`${what}: the service's sha256 differs from the file's`);
    return record.id;
  };
  const keep = (list, run) => list.push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs, rssKiB: run.rssKiB });
  for (let rep = 0; rep < SIZE.fileReps; rep++) {
    const run = await withMockCpu(mock, async () =>
      ensureOk('files upload', await cli(['files', 'upload', blob, '-o', 'json'], { mock, stdout: upOut, rss: true, timeoutMs: 300_000 })),
    );
    const printed = JSON.parse(readFileSync(upOut, 'utf8'));
    await dispose(checkUploaded('files upload', printed?.data ?? printed));
    keep(runs.cliUp, run);
    if (CURL) {
      const cr = await withMockCpu(mock, async () =>
        ensureOk(
          'curl upload',
          await curl(
            [...curlBase(mock), '-H', 'Expect:', '-F', `file=@${blob};type=application/octet-stream`, `${mock.baseUrl}/api/files`],
            { stdout: upOut, rss: true, timeoutMs: 300_000 },
          ),
        ),
      );
      await dispose(checkUploaded('curl upload', JSON.parse(readFileSync(upOut, 'utf8'))?.data));
      keep(runs.curlUp, cr);
    }
    sampleLoad();
    log(`files: upload round ${rep + 1}/${SIZE.fileReps}`);
  }
  const contentPath = () => `/api/files/${encodeURIComponent(downloadId)}/content`;
  const downloads = [
    async () => {
      rmSync(out, { force: true });
      const run = await withMockCpu(mock, async () =>
        ensureOk('files download', await cli(['files', 'download', downloadId, '--out', out], { mock, rss: true, timeoutMs: 300_000 })),
      );
      await assertSameFile('files download', out, bytes, sha256);
      keep(runs.cliDown, run);
    },
    async () => {
      rmSync(out, { force: true });
      const run = await floorRun(mock, 'download-floor.mjs', [contentPath(), out], 'node download floor');
      if (run.output.trim() !== sha256) throw new Error('the node download floor computed another sha256');
      await assertSameFile('node download floor', out, bytes, sha256);
      keep(runs.nodeDown, run);
    },
    async () => {
      if (!CURL) return;
      rmSync(out, { force: true });
      const cr = await withMockCpu(mock, async () =>
        ensureOk(
          'curl download',
          await curl([...curlBase(mock), '-o', out, `${mock.baseUrl}${contentPath()}`], { rss: true, timeoutMs: 300_000 }),
        ),
      );
      await assertSameFile('curl download', out, bytes, sha256);
      keep(runs.curlDown, cr);
    },
    async () => {
      if (!CURL) return;
      rmSync(out, { force: true });
      // The same work as the CLI: download, hash, and make the file durable (fsync of that file).
      const script = '"$CURL" "$@" -o "$OUT" "$URL" && sha256sum "$OUT" > "$OUT.sha256" && sync "$OUT"';
      const cr = await withMockCpu(mock, async () =>
        ensureOk(
          'curl + sha256sum + sync',
          await runTimed({
            cmd: 'bash',
            args: ['-c', script, 'bash', ...curlBase(mock)],
            env: { ...ENV, CURL, OUT: out, URL: `${mock.baseUrl}${contentPath()}` },
            cwd: RUN,
            workDir: RUN,
            timeoutMs: 300_000,
          }),
        ),
      );
      if (!readFileSync(`${out}.sha256`, 'utf8').startsWith(sha256)) throw new Error('sha256sum disagrees with the uploaded file');
      rmSync(`${out}.sha256`, { force: true });
      keep(runs.curlHashSync, cr);
    },
  ];
  for (let rep = 0; rep < SIZE.fileReps; rep++) {
    for (let k = 0; k < downloads.length; k++) await downloads[(rep + k) % downloads.length]();
    sampleLoad();
    log(`files: download round ${rep + 1}/${SIZE.fileReps}`);
  }
  rmSync(out, { force: true });
  rmSync(blob, { force: true });
  details.files = { bytes, runs };
  const rate = (list) => bytes / MiB / (wallOf(list) / 1000);
  const peak = (list) => (list.some((r) => r.rssKiB === undefined) ? undefined : Math.max(...list.map((r) => r.rssKiB)));
  const vs = (row, mine, theirs, limit, label) => {
    const value = rate(mine) / rate(theirs);
    const fields = {
      ...row,
      measured: `${r2(value)}x (${rate(mine).toFixed(0)} vs ${rate(theirs).toFixed(0)} MiB/s)`,
      cpu: `${cpuText(cpuOf(mine))} vs ${cpuText(cpuOf(theirs))}`,
      value,
    };
    if (limit === undefined) infoRow(fields);
    else
      targetRow({
        ...fields,
        limit,
        kind: 'min',
        why: `${rate(mine).toFixed(0)} MiB/s against ${label}'s ${rate(theirs).toFixed(0)} MiB/s`,
      });
  };
  for (const [dir, cliRuns, rssRow] of [
    ['upload', runs.cliUp, filesPlanned[0]],
    ['download', runs.cliDown, filesPlanned[2]],
  ]) {
    const p = peak(cliRuns);
    if (p === undefined) notMeasured([rssRow], 'peak RSS could not be read');
    else
      targetRow({
        ...rssRow,
        measured: mib(p),
        cpu: cpuText(cpuOf(cliRuns)),
        value: p / 1024,
        limit: TARGET.filesPeakMiB,
        kind: 'max',
        unit: ' MiB',
        why: `${mib(p)} at peak for a ${sizeText} ${dir}`,
      });
  }
  if (CURL) {
    vs(filesPlanned[1], runs.cliUp, runs.curlUp, TARGET.uploadThroughput, 'curl -F');
    vs(filesPlanned[3], runs.cliDown, runs.curlHashSync, TARGET.downloadThroughput, 'curl + sha256sum + sync');
  } else notMeasured([filesPlanned[1], filesPlanned[3], filesPlanned[5]], 'not measured (curl missing)');
  vs(filesPlanned[4], runs.cliDown, runs.nodeDown);
  if (CURL) vs(filesPlanned[5], runs.cliDown, runs.curlDown);
  const line = (label, list) => [
    label,
    sec(wallOf(list)),
    `${rate(list).toFixed(0)} MiB/s`,
    cpuText(cpuOf(list)),
    cpuText(mockCpuOf(list)),
    peak(list) === undefined ? '?' : mib(peak(list)),
    list.map((r) => sec(r.ms)).join(', '),
  ];
  sections.push({
    title: '4. Upload and download',
    about: `A ${sizeText} file of random bytes, ${SIZE.fileReps} run(s) each (downloads alternating), HTTPS to a mock without added latency. Wall time includes process start-up for every tool. Every upload's stored size and sha256 and every downloaded file's size and sha256 are checked.`,
    table: {
      header: ['transfer', 'median wall', 'throughput', 'CPU (median)', 'mock CPU (median)', 'peak RSS', 'runs'],
      rows: [
        line('`appraisal files upload PATH`', runs.cliUp),
        ...(CURL ? [line('`curl -F file=@PATH …/api/files`', runs.curlUp)] : []),
        line('`appraisal files download ID --out PATH`', runs.cliDown),
        line('plain Node: socket → file with sha256 and fsync (bench/lib/download-floor.mjs)', runs.nodeDown),
        ...(CURL
          ? [
              line('`curl -o PATH … && sha256sum PATH && sync PATH`', runs.curlHashSync),
              line('`curl -o PATH …/api/files/ID/content` alone', runs.curlDown),
            ]
          : []),
      ],
    },
  });
});

// ---------------------------------------------------------------------------------------------
// 5. keys scan: a large tree searched for leaked keys, against GNU grep doing the same search

await section(
  'scan',
  [{ id: 'scan-tree', benchmark: '`appraisal keys scan DIR` over a 100 MB tree vs `grep -rEo`', target: 'reference, no target' }],
  async () => {
    const mock = await getSmallMock();
    const tree = join(RUN, 'scan-tree');
    rmSync(tree, { recursive: true, force: true });
    // Source-like text: 400 files in 20 folders, three planted keys (not live on the mock).
    const fileCount = 400;
    const perFile = Math.ceil(SIZE.scanBytes / fileCount);
    const line = 'export const settings = { retries: 3, timeoutMs: 30000, endpoint: "https://example.invalid/api" };\n';
    const body = line.repeat(Math.ceil(perFile / line.length));
    const planted = ['apk_AAAAAAAA_' + 'a'.repeat(32), 'apk_BBBBBBBB_' + 'b'.repeat(32), 'apk_CCCCCCCC_' + 'c'.repeat(32)];
    for (let i = 0; i < fileCount; i++) {
      const dir = join(tree, `pkg-${i % 20}`);
      mkdirSync(dir, { recursive: true });
      const extra = i % 133 === 0 ? `const leaked = "${planted[i / 133]}";\n` : '';
      writeFileSync(join(dir, `module-${i}.ts`), body + extra);
    }
    const grep = which('grep');
    const variants = [
      { key: 'cli', label: '`appraisal keys scan DIR`' },
      ...(grep ? [{ key: 'grep', label: '`grep -rEo PATTERN DIR`' }] : []),
    ];
    const samples = await alternate(variants, SIZE.scanReps, 1, async (variant) => {
      const out = join(RUN, `scan-${variant.key}.txt`);
      const run =
        variant.key === 'cli'
          ? await cli(['keys', 'scan', tree], { mock, stdout: out, timeoutMs: 300_000 })
          : await runTimed({
              cmd: grep,
              args: ['-rEo', 'apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}', tree],
              env: ENV,
              cwd: RUN,
              stdout: out,
              workDir: RUN,
              timeoutMs: 300_000,
            });
      // keys scan exits 0 when none of the keys it found is live; grep exits 0 when it found any.
      ensureOk(variant.label, run);
      const text = readFileSync(out, 'utf8');
      const want = variant.key === 'cli' ? planted.map((k) => k.slice(0, 12)) : planted;
      for (const key of want) if (!text.includes(key)) throw new Error(`${variant.label} did not report ${key.slice(0, 12)}`);
      if (variant.key === 'cli' && planted.some((k) => text.includes(k))) throw new Error('keys scan printed a whole key');
      return run;
    });
    const cliMs = wallOf(samples.cli);
    const mbPerS = SIZE.scanBytes / MiB / (cliMs / 1000);
    const against = grep ? ` vs grep ${ms(wallOf(samples.grep))} (${r2(cliMs / wallOf(samples.grep))}x)` : '';
    infoRow({
      id: 'scan-tree',
      benchmark: `\`appraisal keys scan DIR\` over a ${(SIZE.scanBytes / MiB).toFixed(0)} MiB tree`,
      measured: `${ms(cliMs)}, ${mbPerS.toFixed(0)} MiB/s${against}`,
      cpu: cpuText(cpuOf(samples.cli)),
      value: cliMs,
    });
    details.scan = { bytes: SIZE.scanBytes, samples };
    sections.push({
      title: '5. keys scan',
      about: `${fileCount} files (${(SIZE.scanBytes / MiB).toFixed(0)} MiB) with three planted keys, ${SIZE.scanReps} run(s) each after one warm-up, alternating; both must report every planted key (keys scan by prefix only, and asks the mock which are live).`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
    rmSync(tree, { recursive: true, force: true });
  },
);

// ---------------------------------------------------------------------------------------------
// 7. Installed start-up: the single executable and the npm package (bench/install.mjs)

if (selected('install') && !CURL) notMeasured(installPlanned(TARGET.startup), 'not measured (curl missing)');
else
  await section('install', installPlanned(TARGET.startup), async () => {
    const timed = async (what, cmd, args, mock, stdout) =>
      ensureOk(what, await runTimed({ cmd, args, env: { ...ENV, ...mock.env }, cwd: RUN, stdout, workDir: RUN, timeoutMs: 60_000 }));
    details.install = {
      samples: await measureInstall({
        dir: join(RUN, 'install'),
        SIZE,
        TARGET,
        alternate,
        timed,
        nodeBare,
        curl,
        curlBase,
        ensureOk,
        getSmallMock,
        mockRequest,
        withMockCpu,
        wallOf,
        cpuOf,
        targetRow,
        infoRow,
        sections,
        statsRow,
        STATS_HEADER,
        r2,
        ms,
        cpuText,
      }),
    };
  });

await smallMock?.stop();

// ---------------------------------------------------------------------------------------------
// Report

const order = [
  'export-floor',
  'export-cpu',
  'startup-help',
  'latency-get',
  'download-throughput',
  'memory-ratio',
  'memory-peak',
  'memory-query',
  'feature-query',
  'feature-resume',
  'feature-contract',
  'startup-version',
  'scan-tree',
  'export-speedup',
  'export-bound',
  'export-curl',
  'latency-https',
  'latency-undici',
  'download-node',
  'download-curl',
  'download-rss',
  'upload-rss',
  'upload-throughput',
  ...installPlanned(TARGET.startup).map((row) => row.id),
];
rows.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
const sectionOrder = (s) => Number.parseInt(s.title, 10);
sections.sort((a, b) => sectionOrder(a) - sectionOrder(b));

const seconds = Number(process.hrtime.bigint() - began) / 1e9;
const git = (args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const commit = git(['rev-parse', '--short', 'HEAD']).stdout?.trim() || undefined;
const dirty = commit ? git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '' : false;
const cpus = os.cpus();
const result = {
  date: new Date().toISOString(),
  quick: QUICK,
  ran: ONLY ?? SECTIONS,
  commit,
  dirty,
  machine: {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: CORES,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  },
  node: process.version,
  curl: curlVersion,
  nodeArgs: NODE_ARGS,
  cli: CLI_PATH ? relative(ROOT, BIN) : undefined,
  rssMethod: rssMethod(RUN),
  // Other work on the machine skews every figure; the 1-minute load average says how busy it was.
  load: { start: Number(loadAtStart.toFixed(2)), end: Number(os.loadavg()[0].toFixed(2)), busyAbove: BUSY_LOAD },
  durationText: `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`,
  durationSeconds: Number(seconds.toFixed(1)),
  sizes: SIZE,
  targets: TARGET,
  rows,
  details,
};
writeFileSync(join(OUT_DIR, 'results.json'), JSON.stringify(result, null, 2) + '\n');
writeFileSync(join(OUT_DIR, 'results.md'), resultsMarkdown({ ...result, sections }) + '\n');

process.stdout.write(`\n${tableText(rows)}\n\n`);
const missed = misses(rows);
const measured = rows.filter((r) => r.status === 'measured');
process.stdout.write(
  `${measured.filter((r) => r.holds).length} of ${measured.length} targets hold` +
    (failures ? `; ${failures} section(s) FAILED` : '') +
    `. Report: ${relative(process.cwd(), join(OUT_DIR, 'results.md'))} (${result.durationText})\n`,
);
process.exitCode = failures > 0 || rows.some((r) => r.status === 'failed') ? 1 : STRICT && missed.length > 0 ? 1 : 0;
