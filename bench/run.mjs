#!/usr/bin/env node
// `npm run bench`: the performance claims of issue 9, measured as ratios in one run on one machine.
// Starts its own mocks (`appraisal mock --port 0`), runs the built CLI as a user would
// (`node bin/appraisal.js ...`) with a private HOME, and writes bench/results.md and
// bench/results.json. Plain Node ESM so it needs no build of its own; not part of `npm test`.
//
//   node bench/run.mjs            full run (the figures the README quotes), about 3-5 minutes
//   node bench/run.mjs --quick    small sizes, to exercise the harness; writes bench/.work/partial/
//   --only startup,latency,export,memory,files   run some sections (writes bench/.work/partial/)
//   --strict                      exit 1 when a target is missed (default: only when a run fails)
//   --keep                        keep bench/.work/run (outputs, the test file) for inspection
//   --node-arg=FLAG               run the CLI as `node FLAG bin/appraisal.js` (repeatable), to try an
//                                 idea without changing src/ (e.g. --node-arg=--liftoff-only)
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
import { describeFailure, killAll, median, rssMethod, runTimed } from './lib/proc.mjs';
import { misses, resultsMarkdown, tableText } from './lib/report.mjs';

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
const SECTIONS = ['startup', 'latency', 'export', 'memory', 'files'];
const QUICK = argv.includes('--quick');
const STRICT = argv.includes('--strict');
const KEEP = argv.includes('--keep');
const ONLY = flagValue('--only')?.split(',').map((s) => s.trim()).filter(Boolean);
const CLI_PATH = flagValue('--cli');
const BIN = CLI_PATH ? resolve(CLI_PATH) : MOCK_BIN;
const NODE_ARGS = argv.flatMap((a, i) => (a.startsWith('--node-arg=') ? [a.slice('--node-arg='.length)] : a === '--node-arg' ? [argv[i + 1]] : []));
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(1, 19).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
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
  ? { startupRuns: 5, latencyRuns: 5, warmups: 1, exportRecords: 2_000, exportReps: 1, memSmall: 2_000, memLarge: 20_000, memReps: 1, fileBytes: 16 * MiB, fileReps: 1 }
  : { startupRuns: 20, latencyRuns: 15, warmups: 2, exportRecords: 20_000, exportReps: 3, memSmall: 10_000, memLarge: 200_000, memReps: 2, fileBytes: 512 * MiB, fileReps: 3 };
const PAGE_SIZE = 100;
const LATENCY_MS = 20;
const CONCURRENCY = 8;

const TARGET = {
  startup: 1.25, // x `node -e 0`
  exportSpeedup: 5, // x faster than --concurrency 1
  exportBound: 1.5, // x the latency bound
  memRatio: 1.25, // large / small peak RSS
  memPeakMiB: 150,
  filesPeakMiB: 150,
  filesThroughput: 0.7, // x curl
  latency: 1.3, // x (node -e 0 + curl)
};

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
const curlVersion = CURL ? spawnSync(CURL, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].split(' ').slice(0, 2).join(' ') : undefined;

if (!existsSync(join(ROOT, 'dist', 'cli.js')) || !existsSync(BIN)) {
  process.stderr.write('error: the CLI is not built\nhint: run `npm run bench` (it builds first) or `node scripts/build.mjs`\n');
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Helpers: running the CLI and curl, formatting, rows

/** `node bin/appraisal.js ARGS` against `mock` (when given). */
function cli(args, { mock, stdout, rss = false, timeoutMs = 120_000 } = {}) {
  return runTimed({ cmd: NODE, args: [...NODE_ARGS, BIN, ...args], env: { ...ENV, ...(mock?.env ?? {}) }, cwd: RUN, stdout, rss, workDir: RUN, timeoutMs });
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
const details = {};
let failures = 0;

/** A row whose figure is compared with a target: `kind` max (value ≤ limit) or min (value ≥ limit). */
function targetRow({ id, benchmark, measured, target, value, limit, kind, why, unit = 'x' }) {
  const holds = kind === 'max' ? value <= limit : value >= limit;
  const u = (x) => (unit === 'x' ? `${r2(x)}x` : `${x.toFixed(1)}${unit}`);
  const gap =
    kind === 'max'
      ? `${u(value)} against at most ${u(limit)}: ${pct(value / limit - 1)} over the target`
      : `${u(value)} against at least ${u(limit)}: ${pct(1 - value / limit)} short of the target`;
  rows.push({ id, benchmark, measured, target, value, limit, kind, holds, gap, why, status: 'measured' });
}
function infoRow({ id, benchmark, measured, target = 'reference, no target', value }) {
  rows.push({ id, benchmark, measured, target, value, holds: null, status: 'info' });
}

/**
 * Runs one section. `planned` lists the rows it should produce ({id, benchmark, target}); those it
 * did not produce because it failed are marked FAILED with the reason, never left out.
 */
async function section(name, planned, body) {
  if (!selected(name)) return;
  const started = Date.now();
  log(`${name}: start`);
  try {
    await body();
  } catch (error) {
    failures++;
    const reason = String(error?.message ?? error).split('\n')[0].slice(0, 400);
    log(`${name}: FAILED: ${reason}`);
    for (const row of planned) {
      if (!rows.some((r) => r.id === row.id)) rows.push({ ...row, status: 'failed', reason, holds: false });
    }
  }
  log(`${name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function notMeasured(planned, reason) {
  for (const row of planned) rows.push({ ...row, status: 'not-measured', reason, holds: null });
}

// Runs `variants` round-robin `rounds` times after `warmups` untimed rounds, rotating the starting
// variant each round so no variant always runs first (or right after the same one).
async function alternate(variants, rounds, warmups, runOne) {
  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  for (let round = 0; round < warmups + rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(round + k) % variants.length];
      const run = await runOne(variant, round);
      if (round >= warmups) samples[variant.key].push(run.ms);
    }
  }
  return samples;
}

function statsRow(label, samples, unit = ms) {
  return [label, unit(median(samples)), unit(Math.min(...samples)), unit(Math.max(...samples)), String(samples.length)];
}

// ---------------------------------------------------------------------------------------------
// 1. Start-up

await section(
  'startup',
  [
    { id: 'startup-version', benchmark: 'Start-up: `appraisal --version`', target: `≤ ${TARGET.startup}x \`node -e 0\`` },
    { id: 'startup-help', benchmark: 'Start-up: `appraisal props list --help`', target: `≤ ${TARGET.startup}x \`node -e 0\`` },
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
    const base = median(samples.node);
    details.startup = { samplesMs: samples, mediansMs: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) };
    for (const [key, id, name] of [
      ['version', 'startup-version', 'Start-up: `appraisal --version`'],
      ['help', 'startup-help', 'Start-up: `appraisal props list --help`'],
    ]) {
      const value = median(samples[key]) / base;
      targetRow({
        id,
        benchmark: name,
        measured: `${r2(value)}x (${ms(median(samples[key]))} vs ${ms(base)})`,
        target: `≤ ${TARGET.startup}x \`node -e 0\``,
        value,
        limit: TARGET.startup,
        kind: 'max',
        why: `${ms(median(samples[key]) - base)} above a bare Node start, against an allowance of ${ms(base * (TARGET.startup - 1))}`,
      });
    }
    sections.push({
      title: '1. Start-up',
      about: `Median wall time of ${SIZE.startupRuns} runs each (after ${SIZE.warmups} warm-up rounds), the three commands alternating; stdout to /dev/null.`,
      table: { header: ['command', 'median', 'min', 'max', 'runs'], rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
);

// The small mock serves the single-request, memory (small export) and file benchmarks.
let smallMock;
async function getSmallMock() {
  smallMock ??= await startMock({ bin: MOCK_BIN, cwd: RUN, env: ENV, records: SIZE.memSmall, seed: 1 });
  return smallMock;
}

// ---------------------------------------------------------------------------------------------
// 5. Single request latency (run early: it needs only the small mock)

const latencyPlanned = [
  { id: 'latency-get', benchmark: 'Single request: `appraisal props get ID`', target: `≤ ${TARGET.latency}x (\`node -e 0\` + one \`curl\`)` },
];
if (selected('latency') && !CURL) notMeasured(latencyPlanned, 'not measured (curl missing)');
else
  await section('latency', latencyPlanned, async () => {
    const mock = await getSmallMock();
    const first = await mockRequest(mock, 'GET', '/api/properties?page=1&limit=1');
    const id = first.body?.items?.[0]?.id;
    if (first.status !== 200 || typeof id !== 'string') throw new Error(`could not read a property id from the mock (status ${first.status})`);
    const url = `${mock.baseUrl}/api/properties/${encodeURIComponent(id)}`;
    const getOut = join(RUN, 'get.json');
    const variants = [
      { key: 'node', label: '`node -e 0`' },
      { key: 'curl', label: '`curl` of the same URL' },
      { key: 'get', label: '`appraisal props get ID -o json`' },
    ];
    const samples = await alternate(variants, SIZE.latencyRuns, SIZE.warmups, async (variant) => {
      if (variant.key === 'node') return ensureOk('node -e 0', await runTimed({ cmd: NODE, args: ['-e', '0'], env: ENV, cwd: RUN, workDir: RUN }));
      if (variant.key === 'curl') return ensureOk('curl', await curl([...curlBase(mock), url]));
      const run = ensureOk('props get', await cli(['props', 'get', id, '-o', 'json'], { mock, stdout: getOut }));
      const record = JSON.parse(readFileSync(getOut, 'utf8'));
      if (record?.id !== id) throw new Error(`props get printed a record with id ${record?.id}, expected ${id}`);
      return run;
    });
    const bound = median(samples.node) + median(samples.curl);
    const value = median(samples.get) / bound;
    details.latency = { url: url.replace(id, 'ID'), samplesMs: samples };
    targetRow({
      ...latencyPlanned[0],
      measured: `${r2(value)}x (${ms(median(samples.get))} vs ${ms(median(samples.node))} + ${ms(median(samples.curl))})`,
      value,
      limit: TARGET.latency,
      kind: 'max',
      why: `${ms(median(samples.get) - bound)} above \`node -e 0\` + curl`,
    });
    sections.push({
      title: '5. Single request latency',
      about: `\`props get ID\` against a mock without added latency (HTTPS, ${int(SIZE.memSmall)} records); median of ${SIZE.latencyRuns} runs each, alternating. Every \`props get\` output is checked to be the requested record.`,
      table: { header: ['command', 'median', 'min', 'max', 'runs'], rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  });

// ---------------------------------------------------------------------------------------------
// 2. Export throughput

const exportPlanned = [
  { id: 'export-speedup', benchmark: `Export ${int(SIZE.exportRecords)} records: \`--concurrency ${CONCURRENCY}\` vs \`--concurrency 1\``, target: `≥ ${TARGET.exportSpeedup}x faster` },
  { id: 'export-bound', benchmark: `Export ${int(SIZE.exportRecords)} records: \`--concurrency ${CONCURRENCY}\` vs latency bound`, target: `≤ ${TARGET.exportBound}x the bound` },
  { id: 'export-curl', benchmark: `Export ${int(SIZE.exportRecords)} records: \`--concurrency ${CONCURRENCY}\` vs sequential \`curl\` loop`, target: 'reference, no target' },
  { id: 'export-floor', benchmark: `Export ${int(SIZE.exportRecords)} records: a bare in-process undici client at concurrency ${CONCURRENCY}`, target: 'reference, no target' },
];
await section('export', exportPlanned, async () => {
  const mock = await startMock({ bin: MOCK_BIN, cwd: RUN, env: ENV, records: SIZE.exportRecords, seed: 2, latency: LATENCY_MS });
  try {
    const N = SIZE.exportRecords;
    const pages = Math.ceil(N / PAGE_SIZE);
    const boundMs = (pages / CONCURRENCY) * LATENCY_MS;
    const out = join(RUN, 'export.ndjson');
    const pageDir = join(RUN, 'pages');
    const samples = { c8: [], c1: [], curl: [], floor: [] };
    const listArgs = (c) => ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE), '--concurrency', String(c)];
    const curlLoop = [
      'set -e',
      'for ((i = 1; i <= PAGES; i++)); do',
      '  "$CURL" "${CURL_OPTS[@]}" "$BASE/api/properties?page=$i&limit=$LIMIT" -o "$DIR/page-$i.json"',
      'done',
    ].join('\n');
    const steps = [
      async () => {
        const run = ensureOk(`props list --concurrency ${CONCURRENCY}`, await cli(listArgs(CONCURRENCY), { mock, stdout: out }));
        assertCount(`props list --concurrency ${CONCURRENCY}`, await checkNdjson(out), N);
        samples.c8.push(run.ms);
      },
      async () => {
        const run = ensureOk('props list --concurrency 1', await cli(listArgs(1), { mock, stdout: out }));
        assertCount('props list --concurrency 1', await checkNdjson(out), N);
        samples.c1.push(run.ms);
      },
      async () => {
        if (!CURL) return;
        rmSync(pageDir, { recursive: true, force: true });
        mkdirSync(pageDir);
        // The options go through an array so the script stays a plain loop; the key is read from a file.
        const script = `CURL_OPTS=(${curlBase(mock).map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')})\nPAGES=${pages}\n${curlLoop}`;
        const run = ensureOk(
          'curl loop',
          await runTimed({
            cmd: 'bash',
            args: ['-c', script],
            env: { ...ENV, CURL, BASE: mock.baseUrl, LIMIT: String(PAGE_SIZE), DIR: pageDir },
            cwd: RUN,
            workDir: RUN,
            timeoutMs: 300_000,
          }),
        );
        assertCount('curl loop', checkPages(readdirSync(pageDir).map((f) => join(pageDir, f))), N);
        samples.curl.push(run.ms);
      },
      async () => {
        // What the mock and the machine allow: the same requests from a process already running.
        const floorOut = join(RUN, 'floor.json');
        ensureOk(
          'bare undici client',
          await runTimed({
            cmd: NODE,
            args: [join(ROOT, 'bench', 'lib', 'floor.mjs'), String(CONCURRENCY), String(pages), String(PAGE_SIZE)],
            env: { ...ENV, ...mock.env },
            cwd: ROOT,
            stdout: floorOut,
            workDir: RUN,
            timeoutMs: 120_000,
          }),
        );
        const floor = JSON.parse(readFileSync(floorOut, 'utf8'));
        if (floor.records !== N) throw new Error(`bare undici client: expected ${N} records, got ${floor.records}`);
        samples.floor.push(floor.ms);
      },
    ];
    for (let rep = 0; rep < SIZE.exportReps; rep++) {
      for (let k = 0; k < steps.length; k++) await steps[(rep + k) % steps.length]();
      log(`export: round ${rep + 1}/${SIZE.exportReps}`);
    }
    rmSync(out, { force: true });
    rmSync(pageDir, { recursive: true, force: true });
    const c8 = median(samples.c8);
    const c1 = median(samples.c1);
    details.export = { records: N, pages, pageSize: PAGE_SIZE, latencyMs: LATENCY_MS, concurrency: CONCURRENCY, boundMs, mockStartMs: mock.startMs, samplesMs: samples };
    targetRow({
      ...exportPlanned[0],
      measured: `${r2(c1 / c8)}x faster (${sec(c8)} vs ${sec(c1)})`,
      value: c1 / c8,
      limit: TARGET.exportSpeedup,
      kind: 'min',
      why: `\`--concurrency ${CONCURRENCY}\` takes ${sec(c8)} where ${pages} pages in rounds of ${CONCURRENCY} need ${sec(boundMs)} of latency`,
    });
    targetRow({
      ...exportPlanned[1],
      measured: `${r2(c8 / boundMs)}x (${sec(c8)} vs ${pages} pages ÷ ${CONCURRENCY} × ${LATENCY_MS} ms = ${sec(boundMs)})`,
      value: c8 / boundMs,
      limit: TARGET.exportBound,
      kind: 'max',
      why:
        `${ms(c8 - boundMs)} above the bound. A bare undici client already running needs ${sec(median(samples.floor))} for the same pages ` +
        `(the mock's and the machine's share); the CLI adds ${ms(c8 - median(samples.floor))} (start-up, per-record work, exit)`,
    });
    if (CURL) {
      const cu = median(samples.curl);
      infoRow({ ...exportPlanned[2], measured: `${r2(cu / c8)}x faster (${sec(c8)} vs ${sec(cu)})`, value: cu / c8 });
    } else notMeasured([exportPlanned[2]], 'not measured (curl missing)');
    const fl = median(samples.floor);
    infoRow({ ...exportPlanned[3], measured: `${sec(fl)}, ${r2(fl / boundMs)}x the bound (the CLI: ${sec(c8)}, ${r2(c8 / fl)}x this)`, value: fl });
    const rate = (t) => `${int(Math.round(N / (t / 1000)))} records/s`;
    sections.push({
      title: '2. Export throughput',
      about:
        `${int(N)} properties from \`appraisal mock --latency ${LATENCY_MS}\` over HTTPS, page size ${PAGE_SIZE} (${pages} pages), NDJSON to a file; ` +
        `median of ${SIZE.exportReps} run(s) each, the three alternating. Every output is checked: exactly ${int(N)} lines, ${int(N)} distinct ids, every line valid JSON.`,
      table: {
        header: ['command', 'median', 'throughput', 'runs'],
        rows: [
          [`\`props list -o ndjson --concurrency ${CONCURRENCY}\``, sec(c8), rate(c8), samples.c8.map(sec).join(', ')],
          ['`props list -o ndjson --concurrency 1`', sec(c1), rate(c1), samples.c1.map(sec).join(', ')],
          ...(CURL ? [['sequential `curl` loop, one process per page', sec(median(samples.curl)), rate(median(samples.curl)), samples.curl.map(sec).join(', ')]] : []),
          [`bare undici client in a running process, concurrency ${CONCURRENCY} (bench/lib/floor.mjs)`, sec(fl), rate(fl), samples.floor.map(sec).join(', ')],
        ],
      },
      notes: [`Latency bound: ${pages} pages ÷ ${CONCURRENCY} × ${LATENCY_MS} ms = ${sec(boundMs)}.`, `The mock took ${sec(mock.startMs)} to start with ${int(N)} records.`],
    });
  } finally {
    await mock.stop();
  }
});

// ---------------------------------------------------------------------------------------------
// 3. Memory

const memPlanned = [
  { id: 'memory-ratio', benchmark: `Memory: NDJSON export of ${int(SIZE.memLarge)} vs ${int(SIZE.memSmall)} records`, target: `≤ ${TARGET.memRatio}x peak RSS` },
  { id: 'memory-peak', benchmark: `Memory: peak RSS of the ${int(SIZE.memLarge)}-record export`, target: `< ${TARGET.memPeakMiB} MiB` },
];
await section('memory', memPlanned, async () => {
  const small = await getSmallMock();
  const large = await startMock({ bin: MOCK_BIN, cwd: RUN, env: ENV, records: SIZE.memLarge, seed: 3, startTimeoutMs: 300_000 });
  try {
    const out = join(RUN, 'memory.ndjson');
    const args = ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE)];
    const runs = { small: [], large: [] };
    for (let rep = 0; rep < SIZE.memReps; rep++) {
      for (const [key, mock, n] of [['small', small, SIZE.memSmall], ['large', large, SIZE.memLarge]]) {
        const run = ensureOk(`export of ${n} records`, await cli(args, { mock, stdout: out, rss: true, timeoutMs: 300_000 }));
        assertCount(`export of ${n} records`, await checkNdjson(out), n);
        if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
        runs[key].push({ ms: run.ms, rssKiB: run.rssKiB });
      }
      log(`memory: round ${rep + 1}/${SIZE.memReps}`);
    }
    rmSync(out, { force: true });
    const peak = (list) => Math.max(...list.map((r) => r.rssKiB));
    const pSmall = peak(runs.small);
    const pLarge = peak(runs.large);
    details.memory = { small: SIZE.memSmall, large: SIZE.memLarge, largeMockStartMs: large.startMs, runs };
    targetRow({
      ...memPlanned[0],
      measured: `${r2(pLarge / pSmall)}x (${mib(pLarge)} vs ${mib(pSmall)})`,
      value: pLarge / pSmall,
      limit: TARGET.memRatio,
      kind: 'max',
      why: `the ${int(SIZE.memLarge)}-record export peaks ${mib(pLarge - pSmall)} higher than the ${int(SIZE.memSmall)}-record one`,
    });
    const worst = Math.max(pLarge, pSmall) / 1024;
    targetRow({
      ...memPlanned[1],
      measured: `${mib(pLarge)} (the ${int(SIZE.memSmall)}-record export: ${mib(pSmall)})`,
      value: worst,
      limit: TARGET.memPeakMiB,
      kind: 'max',
      unit: ' MiB',
      why: `${mib(Math.max(pLarge, pSmall))} at peak`,
    });
    sections.push({
      title: '3. Memory',
      about: `\`props list -o ndjson --page-size ${PAGE_SIZE}\` (default concurrency) to a file, against mocks without added latency; peak RSS is the highest of ${SIZE.memReps} run(s). Record counts checked every run.`,
      table: {
        header: ['export', 'peak RSS per run', 'wall time per run', 'throughput (median)'],
        rows: [
          [`${int(SIZE.memSmall)} records`, runs.small.map((r) => mib(r.rssKiB)).join(', '), runs.small.map((r) => sec(r.ms)).join(', '), `${int(Math.round(SIZE.memSmall / (median(runs.small.map((r) => r.ms)) / 1000)))} records/s`],
          [`${int(SIZE.memLarge)} records`, runs.large.map((r) => mib(r.rssKiB)).join(', '), runs.large.map((r) => sec(r.ms)).join(', '), `${int(Math.round(SIZE.memLarge / (median(runs.large.map((r) => r.ms)) / 1000)))} records/s`],
        ],
      },
      notes: [`The ${int(SIZE.memLarge)}-record mock took ${sec(large.startMs)} to start.`],
    });
  } finally {
    await large.stop();
  }
});

// ---------------------------------------------------------------------------------------------
// 4. Upload and download

const sizeText = `${SIZE.fileBytes / MiB} MiB`;
const filesPlanned = [
  { id: 'upload-rss', benchmark: `Upload ${sizeText}: peak RSS of \`files upload\``, target: `< ${TARGET.filesPeakMiB} MiB` },
  { id: 'upload-throughput', benchmark: `Upload ${sizeText}: throughput vs \`curl -F\``, target: `≥ ${TARGET.filesThroughput}x curl` },
  { id: 'download-rss', benchmark: `Download ${sizeText}: peak RSS of \`files download\``, target: `< ${TARGET.filesPeakMiB} MiB` },
  { id: 'download-throughput', benchmark: `Download ${sizeText}: throughput vs \`curl -o\``, target: `≥ ${TARGET.filesThroughput}x curl` },
];
await section('files', filesPlanned, async () => {
  const mock = await getSmallMock();
  const bytes = SIZE.fileBytes;
  const blob = join(RUN, 'upload.bin');
  log(`files: writing ${sizeText} of random bytes`);
  const sha256 = writeRandomFile(blob, bytes);
  const out = join(RUN, 'download.bin');
  const upOut = join(RUN, 'upload.json');
  const runs = { cliUp: [], curlUp: [], cliDown: [], curlDown: [] };
  let downloadId;
  const dispose = async (id) => {
    if (downloadId === undefined) downloadId = id;
    else await mockRequest(mock, 'DELETE', `/api/files/${encodeURIComponent(id)}`);
  };
  const checkUploaded = (what, record) => {
    if (typeof record?.id !== 'string') throw new Error(`${what}: the answer holds no file id`);
    if (record.size !== undefined && record.size !== bytes) throw new Error(`${what}: the service stored ${record.size} bytes, expected ${bytes}`);
    if (record.sha256 !== undefined && record.sha256 !== sha256) throw new Error(`${what}: the service's sha256 differs from the file's`);
    return record.id;
  };
  for (let rep = 0; rep < SIZE.fileReps; rep++) {
    const run = ensureOk('files upload', await cli(['files', 'upload', blob, '-o', 'json'], { mock, stdout: upOut, rss: true, timeoutMs: 300_000 }));
    const printed = JSON.parse(readFileSync(upOut, 'utf8'));
    await dispose(checkUploaded('files upload', printed?.data ?? printed));
    runs.cliUp.push({ ms: run.ms, rssKiB: run.rssKiB });
    if (CURL) {
      const cr = ensureOk(
        'curl upload',
        await curl([...curlBase(mock), '-H', 'Expect:', '-F', `file=@${blob};type=application/octet-stream`, `${mock.baseUrl}/api/files`], { stdout: upOut, rss: true, timeoutMs: 300_000 }),
      );
      await dispose(checkUploaded('curl upload', JSON.parse(readFileSync(upOut, 'utf8'))?.data));
      runs.curlUp.push({ ms: cr.ms, rssKiB: cr.rssKiB });
    }
    log(`files: upload round ${rep + 1}/${SIZE.fileReps}`);
  }
  for (let rep = 0; rep < SIZE.fileReps; rep++) {
    rmSync(out, { force: true });
    const run = ensureOk('files download', await cli(['files', 'download', downloadId, '--out', out], { mock, rss: true, timeoutMs: 300_000 }));
    await assertSameFile('files download', out, bytes, sha256);
    runs.cliDown.push({ ms: run.ms, rssKiB: run.rssKiB });
    if (CURL) {
      rmSync(out, { force: true });
      const cr = ensureOk('curl download', await curl([...curlBase(mock), '-o', out, `${mock.baseUrl}/api/files/${encodeURIComponent(downloadId)}/content`], { rss: true, timeoutMs: 300_000 }));
      await assertSameFile('curl download', out, bytes, sha256);
      runs.curlDown.push({ ms: cr.ms, rssKiB: cr.rssKiB });
    }
    log(`files: download round ${rep + 1}/${SIZE.fileReps}`);
  }
  rmSync(out, { force: true });
  rmSync(blob, { force: true });
  details.files = { bytes, runs };
  const rate = (list) => bytes / MiB / (median(list.map((r) => r.ms)) / 1000);
  const peak = (list) => (list.some((r) => r.rssKiB === undefined) ? undefined : Math.max(...list.map((r) => r.rssKiB)));
  for (const [dir, cliRuns, curlRuns, rssRow, tpRow] of [
    ['upload', runs.cliUp, runs.curlUp, filesPlanned[0], filesPlanned[1]],
    ['download', runs.cliDown, runs.curlDown, filesPlanned[2], filesPlanned[3]],
  ]) {
    const p = peak(cliRuns);
    if (p === undefined) notMeasured([rssRow], 'peak RSS could not be read');
    else targetRow({ ...rssRow, measured: mib(p), value: p / 1024, limit: TARGET.filesPeakMiB, kind: 'max', unit: ' MiB', why: `${mib(p)} at peak for a ${sizeText} ${dir}` });
    if (!CURL) notMeasured([tpRow], 'not measured (curl missing)');
    else {
      const value = rate(cliRuns) / rate(curlRuns);
      targetRow({
        ...tpRow,
        measured: `${r2(value)}x (${rate(cliRuns).toFixed(0)} vs ${rate(curlRuns).toFixed(0)} MiB/s)`,
        value,
        limit: TARGET.filesThroughput,
        kind: 'min',
        why: `${rate(cliRuns).toFixed(0)} MiB/s against curl's ${rate(curlRuns).toFixed(0)} MiB/s`,
      });
    }
  }
  const line = (label, list) => [label, sec(median(list.map((r) => r.ms))), `${rate(list).toFixed(0)} MiB/s`, peak(list) === undefined ? '?' : mib(peak(list)), list.map((r) => sec(r.ms)).join(', ')];
  sections.push({
    title: '4. Upload and download',
    about: `A ${sizeText} file of random bytes, ${SIZE.fileReps} run(s) each, HTTPS to a mock without added latency. Wall time includes process start-up for both tools. Every upload's stored size and sha256 and every downloaded file's size and sha256 are checked.`,
    table: {
      header: ['transfer', 'median', 'throughput', 'peak RSS', 'runs'],
      rows: [
        line('`appraisal files upload PATH`', runs.cliUp),
        ...(CURL ? [line('`curl -F file=@PATH …/api/files`', runs.curlUp)] : []),
        line('`appraisal files download ID --out PATH`', runs.cliDown),
        ...(CURL ? [line('`curl -o PATH …/api/files/ID/content`', runs.curlDown)] : []),
      ],
    },
  });
});

await smallMock?.stop();

// ---------------------------------------------------------------------------------------------
// Report

const order = ['startup-version', 'startup-help', 'export-speedup', 'export-bound', 'export-curl', 'export-floor', 'memory-ratio', 'memory-peak', 'upload-rss', 'upload-throughput', 'download-rss', 'download-throughput', 'latency-get'];
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
  load: { start: Number(loadAtStart.toFixed(2)), end: Number(os.loadavg()[0].toFixed(2)) },
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
