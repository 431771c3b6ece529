#!/usr/bin/env node
// `npm run bench`: the performance targets, each a ratio measured in one run on one machine against
// a floor built from Node itself (or curl) run interleaved with the CLI: `node -e 0`, a bare undici
// client already running, a bare node:https request, the same download work written plainly,
// `curl -o … && sha256sum && sync`. Starts its own mocks (`appraisal mock --port 0 --prerender`:
// pre-rendered pages, so the mock takes less of the CPU) and reports the mock's CPU time next to
// each figure; reports CPU time (user+sys of the child) next to every wall time, and the load
// average, flagging figures measured while it was above 1. Runs the built CLI as a user would
// (`node bin/appraisal.js ...`) with a private HOME, and writes bench/results.md and
// bench/results.json. Plain Node ESM so it needs no build of its own; not part of `npm test`.
// `node scripts/bench-readme.mjs` then copies the table into docs/PERFORMANCE.md.
//
// This file is the driver only: each section is a module of bench/ (listed in order in
// bench/sections.mjs) declaring its rows and targets and measuring them with the kit of bench/lib/kit.mjs.
//
//   node bench/run.mjs            full run (the figures docs/PERFORMANCE.md quotes), about 10 minutes
//   node bench/run.mjs --quick    small sizes, to exercise the harness; writes bench/.work/partial/
//   --only SECTION,SECTION        run some sections (names: see --help); writes bench/.work/partial/
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
// a run failed or a check did not hold (wrong record count, corrupted file), 2 for an unknown
// section, 130 on Ctrl-C.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createKit } from './lib/kit.mjs';
import { killAll, rssMethod } from './lib/proc.mjs';
import { misses, resultsMarkdown, tableText } from './lib/report.mjs';
import { createRecorder } from './lib/rows.mjs';
import { FULL, QUICK as QUICK_SIZES } from './lib/sizes.mjs';
import { allTargets, SECTIONS } from './sections.mjs';

const ROOT = join(import.meta.dirname, '..');
// The mocks always come from this checkout; the CLI under test may be another build (--cli).
const MOCK_BIN = join(ROOT, 'bin', 'appraisal.js');
const WORK = join(ROOT, 'bench', '.work');
const RUN = join(WORK, 'run');
const NAMES = SECTIONS.map((section) => section.name);

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
function flagValue(name) {
  const at = argv.indexOf(name);
  if (at >= 0) return argv[at + 1];
  const inline = argv.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}
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
      .join('\n') + `\n\nSections, in order: ${NAMES.join(', ')}\n`,
  );
  process.exit(0);
}
for (const name of ONLY ?? []) {
  if (!NAMES.includes(name)) {
    process.stderr.write(`error: unknown section "${name}" (sections: ${NAMES.join(', ')})\n`);
    process.exit(2);
  }
}
const PARTIAL = QUICK || ONLY !== undefined || NODE_ARGS.length > 0 || CLI_PATH !== undefined;
const OUT_DIR = PARTIAL ? join(WORK, 'partial') : join(ROOT, 'bench');
const SIZE = QUICK ? QUICK_SIZES : FULL;
const TARGET = allTargets();
/** Above this 1-minute load average a figure is flagged: other work shared the cores. */
const BUSY_LOAD = 1;

// ---------------------------------------------------------------------------------------------
// Set-up: scratch directories, clean-up, the kit

const began = process.hrtime.bigint();
const loadAtStart = os.loadavg()[0];
const CORES = os.availableParallelism?.() ?? os.cpus().length;
const log = (text) => process.stderr.write(`bench: ${text}\n`);
if (loadAtStart > CORES / 2) {
  log(`warning: load average ${loadAtStart.toFixed(1)} on ${CORES} cores: other work will make every figure noisier`);
}

rmSync(RUN, { recursive: true, force: true });
for (const dir of [RUN, join(RUN, 'home'), join(RUN, 'xdg'), OUT_DIR]) mkdirSync(dir, { recursive: true });
// Private, as `auth login` makes it (doctor reports a config dir others can read).
mkdirSync(join(RUN, 'config'), { mode: 0o700 });

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

if (!existsSync(join(ROOT, 'dist', 'cli.cjs')) || !existsSync(BIN)) {
  process.stderr.write('error: the CLI is not built\nhint: run `npm run bench` (it builds first) or `node scripts/build.mjs`\n');
  process.exit(1);
}

const recorder = createRecorder({ log });
const kit = createKit({
  root: ROOT,
  run: RUN,
  bin: BIN,
  mockBin: MOCK_BIN,
  nodeArgs: NODE_ARGS,
  size: SIZE,
  target: TARGET,
  quick: QUICK,
  keep: KEEP,
  log,
  recorder,
});
const TOOLS = { curl: kit.CURL };
const curlVersion = kit.CURL
  ? spawnSync(kit.CURL, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].split(' ').slice(0, 2).join(' ')
  : undefined;

// ---------------------------------------------------------------------------------------------
// The sections, in order: each declares its rows; those it cannot run for want of a tool are
// reported as not measured, those it fails to write as FAILED (lib/rows.mjs).

const declared = SECTIONS.map((section) => ({ section, planned: section.rows({ SIZE, TARGET }) }));
const order = declared.flatMap(({ planned }) => planned.map((row) => row.id));
for (const [index, { section, planned }] of declared.entries()) {
  if (ONLY && !ONLY.includes(section.name)) continue;
  const missing = (section.needs ?? []).filter((tool) => !TOOLS[tool]);
  if (missing.length > 0) {
    recorder.notMeasured(planned, `not measured (${missing.join(', ')} missing)`);
    continue;
  }
  const byId = Object.fromEntries(planned.map((row) => [row.id, row]));
  await recorder.run({ name: section.name, title: `${index + 1}. ${section.title}`, planned }, () => section.measure(kit, byId));
}
await kit.stopSmallMock();

// ---------------------------------------------------------------------------------------------
// Report: rows in section order, each section's rows in the order it declares them

const { rows, sections } = recorder;
rows.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));

const seconds = Number(process.hrtime.bigint() - began) / 1e9;
const git = (args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const commit = git(['rev-parse', '--short', 'HEAD']).stdout?.trim() || undefined;
const dirty = commit ? git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '' : false;
const cpus = os.cpus();
const result = {
  date: new Date().toISOString(),
  quick: QUICK,
  ran: ONLY ?? NAMES,
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
  details: kit.details,
};
writeFileSync(join(OUT_DIR, 'results.json'), JSON.stringify(result, null, 2) + '\n');
writeFileSync(join(OUT_DIR, 'results.md'), resultsMarkdown({ ...result, sections }) + '\n');

process.stdout.write(`\n${tableText(rows)}\n\n`);
const missed = misses(rows);
const measured = rows.filter((r) => r.status === 'measured');
const failures = recorder.failures();
process.stdout.write(
  `${measured.filter((r) => r.holds).length} of ${measured.length} targets hold` +
    (failures ? `; ${failures} section(s) FAILED` : '') +
    `. Report: ${relative(process.cwd(), join(OUT_DIR, 'results.md'))} (${result.durationText})\n`,
);
process.exitCode = failures > 0 || rows.some((r) => r.status === 'failed') ? 1 : STRICT && missed.length > 0 ? 1 : 0;
