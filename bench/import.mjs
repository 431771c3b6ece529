// Section "import" (issue 27): `props import`, each figure a ratio against a floor measured in the
// same run:
//   - 10,000 new properties at --concurrency 8 against the mock with 20 ms latency, vs a bare undici
//     client (bench/lib/floor.mjs import) sending the same 10,000 POSTs at the same concurrency plus a
//     bare `node -e 0` start (target ≤ 1.3x);
//   - the same file again with --match parcelNumber (nothing changed: no write) vs a full
//     `props list` export of the same records (≤ 1.5x);
//   - peak RSS importing 200,000 rows ≤ 1.3x the peak for 10,000 rows, and < 150 MiB (the file
//     streams; only the match index is held). Against a mock without latency, to finish in minutes.
// The creates are measured once; the re-import and its floor in REIMPORT_ROUNDS alternating rounds
// (each side's median run); the peak RSS rows take the median of MEM_RUNS runs of each size (the
// full sizes then take several minutes: 630,000 creates).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuText, int, mib, ms, r2, sec } from './lib/format.mjs';
import { cpuOf, wallOf } from './lib/samples.mjs';

const CONCURRENCY = 8;
const LATENCY_MS = 20;
// Runs of each size for the peak RSS rows (the median decides; a 200,000-row run takes ~90 s).
const MEM_RUNS = 3;
// Alternating rounds of the unchanged re-import and the list it is measured against (~1 s each).
const REIMPORT_ROUNDS = 3;

const HEADER = 'name,propertyType,parcelNumber,yearBuilt,address.line1,address.city,address.region,address.postalCode,address.country\n';

/** A CSV of `count` new properties (and the same records as NDJSON request bodies, for the floor). */
function writeInputs(dir, name, count, withBodies) {
  const csv = join(dir, `${name}.csv`);
  const lines = [HEADER];
  const bodies = [];
  for (let n = 1; n <= count; n++) {
    lines.push(`${name} ${n},office,${name}-${n},${1900 + (n % 120)},${n} Pier Rd,Boston,MA,02110,US\n`);
    if (withBodies)
      bodies.push(
        JSON.stringify({
          name: `${name} ${n}`,
          propertyType: 'office',
          parcelNumber: `${name}-${n}`,
          yearBuilt: 1900 + (n % 120),
          address: { line1: `${n} Pier Rd`, city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
        }),
      );
  }
  writeFileSync(csv, lines.join(''));
  const ndjson = join(dir, `${name}.ndjson`);
  if (withBodies) writeFileSync(ndjson, `${bodies.join('\n')}\n`);
  return { csv, ndjson };
}

/** Median of five bare `node -e 0` starts: the floor's process start-up. */
function nodeStartMs() {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    runs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return runs.sort((a, b) => a - b)[2];
}

export default {
  name: 'import',
  title: 'Import',
  targets: {
    importCreate: 1.3, // x (`node -e 0` + bare undici POSTs)
    importUnchanged: 1.5, // x `props list` of the same records
    importMemRatio: 1.3, // large / small peak RSS
    importPeakMiB: 150,
  },
  rows: ({ SIZE, TARGET }) => [
    {
      id: 'import-create',
      benchmark: `Import: ${int(SIZE.importCreate)} new properties, --concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency, vs bare undici POSTs`,
      target: `≤ ${TARGET.importCreate}x`,
    },
    {
      id: 'import-unchanged',
      benchmark: `Import: the same ${int(SIZE.importCreate)} rows again (no write) vs \`props list\` of the same records`,
      target: `≤ ${TARGET.importUnchanged}x`,
    },
    {
      id: 'import-memory',
      benchmark: `Import: peak RSS, ${int(SIZE.importMemLarge)} rows vs ${int(SIZE.importMemSmall)}`,
      target: `≤ ${TARGET.importMemRatio}x`,
    },
    {
      id: 'import-memory-peak',
      benchmark: `Import: peak RSS of the ${int(SIZE.importMemLarge)}-row import`,
      target: `< ${TARGET.importPeakMiB} MiB`,
    },
  ],
  async measure(kit, planned) {
    const { RUN, SIZE, TARGET } = kit;
    const dir = join(RUN, 'import');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const cli = async (mock, args, extra = {}) =>
      kit.ensureOk(
        `appraisal ${args.join(' ')}`,
        await kit.cli(args, { mock, cwd: dir, rss: extra.rss, stdout: extra.stdout, timeoutMs: 1_800_000 }),
      );
    const table = [];

    // 1. Creating the properties vs the bare undici floor, each against a fresh mock with latency.
    kit.log(`import: ${SIZE.importCreate} creates at concurrency ${CONCURRENCY}, ${LATENCY_MS} ms latency`);
    const inputs = writeInputs(dir, 'NEW', SIZE.importCreate, true);
    const importMock = await kit.mock({ records: 10, latency: LATENCY_MS });
    const floorMock = await kit.mock({ records: 10, latency: LATENCY_MS });
    try {
      // The same import, first creating every row, then again with nothing to change.
      const importArgs = ['props', 'import', inputs.csv, '--match', 'parcelNumber', '--concurrency', String(CONCURRENCY)];
      const create = await cli(importMock, importArgs);
      const floorRun = spawnSync(
        process.execPath,
        [join(kit.ROOT, 'bench', 'lib', 'floor.mjs'), 'import', inputs.ndjson, String(CONCURRENCY)],
        { env: { ...kit.ENV, ...floorMock.env }, encoding: 'utf8', maxBuffer: 1 << 20 },
      );
      if (floorRun.status !== 0) throw new Error(`import floor: ${floorRun.stderr}`);
      const floor = JSON.parse(floorRun.stdout.trim().split('\n').pop());
      if (floor.records !== SIZE.importCreate) throw new Error(`import floor created ${floor.records} of ${SIZE.importCreate}`);
      const nodeMs = nodeStartMs();
      const floorMs = floor.ms + nodeMs;
      const ratio = create.ms / floorMs;
      kit.targetRow({
        ...planned['import-create'],
        measured: `${r2(ratio)}x (${sec(create.ms)} vs ${ms(nodeMs)} + ${sec(floor.ms)})`,
        cpu: `${cpuText(create.cpuMs)} vs ${cpuText(floor.cpuMs)} (the floor's requests alone)`,
        value: ratio,
        limit: TARGET.importCreate,
        kind: 'max',
        why: `the CLI takes ${ms(create.ms - floorMs)} more than a bare Node start plus the bare client's POSTs`,
      });
      table.push(
        [`\`props import\` of ${int(SIZE.importCreate)} new rows`, sec(create.ms), cpuText(create.cpuMs)],
        ['bare undici POSTs, the requests alone (bench/lib/floor.mjs import)', sec(floor.ms), cpuText(floor.cpuMs)],
        ['`node -e 0` (median of 5)', ms(nodeMs), ''],
      );

      // 2. The same file again: nothing changed, so no write; vs a full export of the same records.
      // Each ~1 s run moves by ±15% on two cores shared with the mock: REIMPORT_ROUNDS alternating
      // rounds, and each side's median run decides.
      kit.log(`import: the same ${SIZE.importCreate} rows again (unchanged) vs props list, ${REIMPORT_ROUNDS} alternating rounds`);
      const samples = await kit.alternate([{ key: 'unchanged' }, { key: 'exported' }], REIMPORT_ROUNDS, 0, async (variant, round) =>
        variant.key === 'unchanged'
          ? await cli(importMock, [...importArgs, '--results', join(dir, `unchanged-${round}.results.csv`)])
          : await cli(importMock, ['props', 'list', '-o', 'ndjson', '--page-size', '100', '--concurrency', String(CONCURRENCY)], {
              stdout: join(dir, 'export.ndjson'),
            }),
      );
      const unchanged = { ms: wallOf(samples.unchanged), cpuMs: cpuOf(samples.unchanged) };
      const exported = { ms: wallOf(samples.exported), cpuMs: cpuOf(samples.exported) };
      const unchangedRatio = unchanged.ms / exported.ms;
      kit.targetRow({
        ...planned['import-unchanged'],
        measured: `${r2(unchangedRatio)}x (${sec(unchanged.ms)} vs ${sec(exported.ms)})`,
        cpu: `${cpuText(unchanged.cpuMs)} vs ${cpuText(exported.cpuMs)}`,
        value: unchangedRatio,
        limit: TARGET.importUnchanged,
        kind: 'max',
        why: `matching ${int(SIZE.importCreate)} unchanged rows takes ${ms(unchanged.ms - exported.ms)} more than exporting them`,
      });
      table.push(
        [
          `the same ${int(SIZE.importCreate)} rows again (no write), median of ${REIMPORT_ROUNDS}`,
          sec(unchanged.ms),
          cpuText(unchanged.cpuMs),
        ],
        [`\`props list -o ndjson\` of the same records, median of ${REIMPORT_ROUNDS}`, sec(exported.ms), cpuText(exported.cpuMs)],
      );
    } finally {
      await importMock.stop();
      await floorMock.stop();
    }

    // 3. Peak RSS: many rows vs fewer, each run against a fresh mock without latency. The peak of
    // one build moves by ~30 MiB between single runs (GC timing, bench/lib/reasons.mjs), so each size
    // runs MEM_RUNS times, the sizes alternating, and the row takes each size's median run.
    const files = {};
    for (const count of [SIZE.importMemSmall, SIZE.importMemLarge]) files[count] = writeInputs(dir, `MEM${count}`, count, false).csv;
    const runs = { [SIZE.importMemSmall]: [], [SIZE.importMemLarge]: [] };
    for (let round = 1; round <= MEM_RUNS; round++) {
      for (const count of [SIZE.importMemSmall, SIZE.importMemLarge]) {
        kit.log(`import: peak RSS creating ${count} rows (run ${round} of ${MEM_RUNS})`);
        const mock = await kit.mock({ records: 10 });
        try {
          const run = await cli(mock, ['props', 'import', files[count], '--match', 'parcelNumber', '--concurrency', String(CONCURRENCY)], {
            rss: true,
          });
          if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
          runs[count].push({ rssKiB: run.rssKiB, ms: run.ms, cpuMs: run.cpuMs });
        } finally {
          await mock.stop();
        }
      }
    }
    const peaks = {};
    for (const count of [SIZE.importMemSmall, SIZE.importMemLarge]) {
      rmSync(files[count], { force: true });
      const sorted = [...runs[count]].sort((a, b) => a.rssKiB - b.rssKiB);
      const median = sorted[Math.floor(sorted.length / 2)];
      peaks[count] = { ...median, runsKiB: runs[count].map((run) => run.rssKiB) };
      table.push([
        `\`props import\` of ${int(count)} new rows, no latency (median run of ${MEM_RUNS}: peak RSS ${mib(median.rssKiB)}; all runs ${runs[count].map((run) => mib(run.rssKiB)).join(', ')})`,
        sec(median.ms),
        cpuText(median.cpuMs),
      ]);
    }
    const small = peaks[SIZE.importMemSmall];
    const large = peaks[SIZE.importMemLarge];
    kit.targetRow({
      ...planned['import-memory'],
      measured: `${r2(large.rssKiB / small.rssKiB)}x (${mib(large.rssKiB)} vs ${mib(small.rssKiB)})`,
      cpu: `${cpuText(large.cpuMs)} vs ${cpuText(small.cpuMs)}`,
      value: large.rssKiB / small.rssKiB,
      limit: TARGET.importMemRatio,
      kind: 'max',
      why: `the ${int(SIZE.importMemLarge)}-row import peaks ${mib(large.rssKiB - small.rssKiB)} higher than the ${int(SIZE.importMemSmall)}-row one`,
    });
    kit.targetRow({
      ...planned['import-memory-peak'],
      measured: `${mib(large.rssKiB)} (${sec(large.ms)})`,
      cpu: cpuText(large.cpuMs),
      value: large.rssKiB / 1024,
      limit: TARGET.importPeakMiB,
      kind: 'max',
      unit: ' MiB',
      why: `${mib(large.rssKiB)} at peak`,
    });
    kit.details.import = { sizes: { create: SIZE.importCreate, memSmall: SIZE.importMemSmall, memLarge: SIZE.importMemLarge }, peaks };
    kit.detail({
      about: `\`props import FILE.csv --match parcelNumber --concurrency ${CONCURRENCY}\`, the creates and the unchanged re-import measured once against mocks with ${LATENCY_MS} ms latency (the floor against a mock of its own), the peak RSS runs ${MEM_RUNS} times per size (alternating, the median run counts) against fresh mocks without latency.`,
      table: { header: ['command', 'wall', 'CPU'], rows: table },
    });
    if (!kit.KEEP) rmSync(dir, { recursive: true, force: true });
  },
};
