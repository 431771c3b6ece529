// Section "export": `props list -o ndjson` of many records against a mock with 20 ms latency per
// request, against floors from the same run: `node -e 0` + a bare undici client already running
// (bench/lib/floor.mjs) fetching the same pages at the same concurrency, the same export at
// concurrency 1, a sequential curl loop and the latency bound; in the same rounds other features
// (--query, resume checkpoints, --validate), each against the same export without it.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertCount, checkNdjson, checkPages } from './lib/check.mjs';
import { cpuText, int, ms, pct, r2, sec } from './lib/format.mjs';
import { describeFailure, runTimed } from './lib/proc.mjs';
import { cpuOf, mockCpuOf, wallOf } from './lib/samples.mjs';

const PAGE_SIZE = 100;
const LATENCY_MS = 20;
const CONCURRENCY = 8;

/** Features of other issues, each run as the same export with it (`flag` must be in `props list --help`). */
const FEATURES = [
  // Every record kept: the cost of evaluating the expression, same output.
  { id: 'feature-query', name: '`--query "[*]"`', flag: '--query', args: () => ['--query', '[*]'] },
  // --out keeps a partial file and fsyncs a checkpoint every 500 ms (then the file itself), against
  // the same export to stdout redirected to a file.
  {
    id: 'feature-resume',
    name: 'resume checkpoints (`--out`)',
    flag: '--resume',
    args: (run) => ['--out', join(run, 'checkpointed.ndjson')],
  },
  { id: 'feature-contract', name: 'contract validation (`--validate`)', flag: '--validate', args: () => ['--validate'] },
];

export default {
  name: 'export',
  title: 'Export throughput',
  targets: {
    exportSpeedup: 5, // x faster than --concurrency 1
    exportFloor: 1.2, // x (`node -e 0` + the bare undici client already running)
    exportCpu: 1.5, // CPU per page, x the floor's
    featureOverhead: 1.1, // --query / resume checkpoints / contract validation: x the same export without
  },
  rows: ({ SIZE, TARGET }) => [
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
    ...FEATURES.map((feature) => ({
      id: feature.id,
      benchmark: `Export ${int(SIZE.exportRecords)} records with ${feature.name} vs the same export without it`,
      target: `≤ ${Math.round((TARGET.featureOverhead - 1) * 100)}% over`,
    })),
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
  ],
  async measure(kit, planned) {
    const { CURL, ENV, RUN, SIZE, TARGET } = kit;
    const mock = await kit.mock({ records: SIZE.exportRecords, seed: 2, latency: LATENCY_MS });
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
      const features = await featureSteps(kit, mock, listArgs(CONCURRENCY), out);
      const steps = [
        async () => {
          const run = await kit.withMockCpu(mock, async () =>
            kit.ensureOk(`props list --concurrency ${CONCURRENCY}`, await kit.cli(listArgs(CONCURRENCY), { mock, stdout: out })),
          );
          assertCount(`props list --concurrency ${CONCURRENCY}`, await checkNdjson(out), N);
          keep(samples.c8, run);
        },
        async () => keep(samples.node, await kit.nodeBare()),
        async () => {
          // The floor: the same requests from a process already running (its start-up is `node -e 0`'s).
          const run = await kit.floorRun(
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
          const run = await kit.withMockCpu(mock, async () =>
            kit.ensureOk('props list --concurrency 1', await kit.cli(listArgs(1), { mock, stdout: out })),
          );
          assertCount('props list --concurrency 1', await checkNdjson(out), N);
          keep(samples.c1, run);
        },
        async () => {
          if (!CURL) return;
          rmSync(pageDir, { recursive: true, force: true });
          mkdirSync(pageDir);
          // The options go through an array so the script stays a plain loop; the key is read from a file.
          const script = `CURL_OPTS=(${kit
            .curlBase(mock)
            .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
            .join(' ')})\nPAGES=${pages}\n${curlLoop}`;
          const run = await kit.withMockCpu(mock, async () =>
            kit.ensureOk(
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
        // Each feature's runs alternate with the runs of the export without it: a feature measured
        // in a burst of its own after the rounds met another load than the export it is compared with.
        ...features.steps,
      ];
      for (let rep = 0; rep < SIZE.exportReps; rep++) {
        for (let k = 0; k < steps.length; k++) await steps[(rep + k) % steps.length]();
        kit.sampleLoad();
        kit.log(`export: round ${rep + 1}/${SIZE.exportReps}`);
      }
      rmSync(out, { force: true });
      rmSync(pageDir, { recursive: true, force: true });
      const c8 = wallOf(samples.c8);
      const c1 = wallOf(samples.c1);
      const node0 = wallOf(samples.node);
      const fl = wallOf(samples.floor);
      kit.details.export = {
        records: N,
        pages,
        pageSize: PAGE_SIZE,
        latencyMs: LATENCY_MS,
        concurrency: CONCURRENCY,
        boundMs,
        mockStartMs: mock.startMs,
        samples,
      };
      kit.targetRow({
        ...planned['export-floor'],
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
      if (cliCpu === undefined || floorCpu === undefined)
        kit.notMeasured([planned['export-cpu']], 'CPU time could not be read (no GNU time)');
      else
        kit.targetRow({
          ...planned['export-cpu'],
          measured: `${r2(cliCpu / floorCpu)}x (${(cliCpu / pages).toFixed(2)} vs ${(floorCpu / pages).toFixed(2)} ms per page)`,
          cpu: `${cpuText(cliCpu)} vs ${cpuText(floorCpu)} per export`,
          value: cliCpu / floorCpu,
          limit: TARGET.exportCpu,
          kind: 'max',
          why: `${ms(cliCpu - floorCpu)} more CPU per export than the bare client's process`,
        });
      kit.targetRow({
        ...planned['export-speedup'],
        measured: `${r2(c1 / c8)}x faster (${sec(c8)} vs ${sec(c1)})`,
        cpu: `${cpuText(cpuOf(samples.c8))} vs ${cpuText(cpuOf(samples.c1))}`,
        value: c1 / c8,
        limit: TARGET.exportSpeedup,
        kind: 'min',
        why: `\`--concurrency ${CONCURRENCY}\` takes ${sec(c8)} where ${pages} pages in rounds of ${CONCURRENCY} need ${sec(boundMs)} of latency`,
      });
      kit.infoRow({
        ...planned['export-bound'],
        measured: `${r2(c8 / boundMs)}x (${sec(c8)} vs ${pages} pages ÷ ${CONCURRENCY} × ${LATENCY_MS} ms = ${sec(boundMs)}); the bare client alone: ${r2(fl / boundMs)}x`,
        value: c8 / boundMs,
      });
      if (CURL) {
        const cu = wallOf(samples.curl);
        kit.infoRow({
          ...planned['export-curl'],
          measured: `${r2(cu / c8)}x faster (${sec(c8)} vs ${sec(cu)})`,
          cpu: `${cpuText(cpuOf(samples.c8))} vs ${cpuText(cpuOf(samples.curl))}`,
          value: cu / c8,
        });
      } else kit.notMeasured([planned['export-curl']], 'not measured (curl missing)');
      const rate = (t) => `${int(Math.round(N / (t / 1000)))} records/s`;
      const line = (label, list) => [
        label,
        sec(wallOf(list)),
        rate(wallOf(list)),
        cpuText(cpuOf(list)),
        cpuText(mockCpuOf(list)),
        list.map((r) => sec(r.ms)).join(', '),
      ];
      kit.detail({
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
            ...features.measured().map(({ feature, runs }) => line(`the same with ${feature.name}`, runs)),
          ],
        },
        notes: [
          `Latency bound: ${pages} pages ÷ ${CONCURRENCY} × ${LATENCY_MS} ms = ${sec(boundMs)} (a reference: on two cores the bare client alone is above it).`,
          `The mock took ${sec(mock.startMs)} to start with ${int(N)} records.`,
        ],
      });
      features.rows(planned, c8, samples.c8);
    } finally {
      await mock.stop();
    }
  },
};

/**
 * Other issues' features, each against the same export without it (≤ 10% over): one step per
 * feature for the export's rounds (run when this build has the feature), and the rows made from
 * their runs afterwards (not measured when the build lacks it or a run failed).
 */
async function featureSteps(kit, mock, baseArgs, out) {
  const helpOut = join(kit.RUN, 'list-help.txt');
  kit.ensureOk('props list --help', await kit.cli(['props', 'list', '--help'], { stdout: helpOut }));
  const help = readFileSync(helpOut, 'utf8');
  const state = FEATURES.map((feature) => ({ feature, args: feature.args(kit.RUN), runs: [], failed: undefined }));
  const steps = state
    .filter((s) => help.includes(s.feature.flag))
    .map((s) => async () => {
      if (s.failed !== undefined) return;
      const run = await kit.withMockCpu(mock, async () => await kit.cli([...baseArgs, ...s.args], { mock, stdout: out }));
      if (run.code === 0) s.runs.push(run);
      else s.failed = describeFailure(run);
    });
  const rows = (planned, baseMs, baseSamples) => {
    for (const { feature, args, runs, failed } of state) {
      const row = planned[feature.id];
      if (!help.includes(feature.flag)) kit.notMeasured([row], `not measured: \`props list\` has no ${feature.flag} in this build`);
      else if (failed !== undefined) kit.notMeasured([row], `not measured: \`props list ${args.join(' ')}\` failed: ${failed}`);
      else {
        const value = wallOf(runs) / baseMs;
        kit.targetRow({
          ...row,
          measured: `${pct(value - 1)} over (${sec(wallOf(runs))} vs ${sec(baseMs)})`,
          cpu: `${cpuText(cpuOf(runs))} vs ${cpuText(cpuOf(baseSamples))}`,
          value,
          limit: kit.TARGET.featureOverhead,
          kind: 'max',
          why: `${feature.name} adds ${ms(wallOf(runs) - baseMs)}`,
        });
      }
    }
  };
  /** The features whose every run succeeded, with their runs (for the detail table). */
  const measured = () => state.filter((s) => help.includes(s.feature.flag) && s.failed === undefined && s.runs.length > 0);
  return { steps, rows, measured };
}
