// Section "memory": peak RSS of an NDJSON export of many records against a small one (the large
// export must not hold its records), the large one's peak against a fixed bound, and the large one
// again through `--query` (evaluated record by record, so it stays flat too).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertCount, checkNdjson } from './lib/check.mjs';
import { cpuText, int, mib, r2, sec } from './lib/format.mjs';
import { cpuOf, medianRun, wallOf } from './lib/samples.mjs';

const PAGE_SIZE = 100;

export default {
  name: 'memory',
  title: 'Memory',
  targets: {
    memRatio: 1.2, // large / small peak RSS
    memPeakMiB: 100,
  },
  rows: ({ SIZE, TARGET }) => [
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
  ],
  async measure(kit, planned) {
    const { RUN, SIZE, TARGET } = kit;
    const small = await kit.getSmallMock();
    const large = await kit.mock({ records: SIZE.memLarge, seed: 3, startTimeoutMs: 300_000 });
    try {
      const out = join(RUN, 'memory.ndjson');
      const args = ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE)];
      const runs = { small: [], large: [] };
      for (let rep = 0; rep < SIZE.memReps; rep++) {
        for (const [key, mock, n] of [
          ['small', small, SIZE.memSmall],
          ['large', large, SIZE.memLarge],
        ]) {
          const run = await kit.withMockCpu(mock, async () =>
            kit.ensureOk(`export of ${n} records`, await kit.cli(args, { mock, stdout: out, rss: true, timeoutMs: 300_000 })),
          );
          assertCount(`export of ${n} records`, await checkNdjson(out), n);
          if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
          runs[key].push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs, rssKiB: run.rssKiB });
        }
        kit.sampleLoad();
        kit.log(`memory: round ${rep + 1}/${SIZE.memReps}`);
      }
      await queryMemoryRow(kit, planned['memory-query'], large, out);
      rmSync(out, { force: true });
      // One build's peak moves by a few MiB between runs (GC timing): each size takes its median run.
      const pSmall = medianRun(runs.small, (r) => r.rssKiB).rssKiB;
      const pLarge = medianRun(runs.large, (r) => r.rssKiB).rssKiB;
      kit.details.memory = { small: SIZE.memSmall, large: SIZE.memLarge, largeMockStartMs: large.startMs, runs };
      kit.targetRow({
        ...planned['memory-ratio'],
        measured: `${r2(pLarge / pSmall)}x (${mib(pLarge)} vs ${mib(pSmall)})`,
        cpu: `${cpuText(cpuOf(runs.large))} vs ${cpuText(cpuOf(runs.small))}`,
        value: pLarge / pSmall,
        limit: TARGET.memRatio,
        kind: 'max',
        why: `the ${int(SIZE.memLarge)}-record export peaks ${mib(pLarge - pSmall)} higher than the ${int(SIZE.memSmall)}-record one`,
      });
      const worst = Math.max(pLarge, pSmall) / 1024;
      kit.targetRow({
        ...planned['memory-peak'],
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
      kit.detail({
        about: `\`props list -o ndjson --page-size ${PAGE_SIZE}\` (default concurrency) to a file, against mocks without added latency (pre-rendered pages); ${SIZE.memReps} run(s) per size, the sizes alternating; each row takes the median run's peak RSS. Record counts checked every run.`,
        table: {
          header: ['export', 'peak RSS per run', 'wall time per run', 'CPU per run', 'throughput (median)'],
          rows: [line(SIZE.memSmall, runs.small), line(SIZE.memLarge, runs.large)],
        },
        notes: [`The ${int(SIZE.memLarge)}-record mock took ${sec(large.startMs)} to start.`],
      });
    } finally {
      await large.stop();
    }
  },
};

/** Peak RSS of the large export through `--query`: evaluated record by record, memory stays flat. */
async function queryMemoryRow(kit, row, mock, out) {
  const { SIZE, TARGET } = kit;
  const query = "[?propertyType=='office'].{id: id, city: address.city}";
  const args = ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE), '--query', query];
  const run = kit.ensureOk(
    `--query export of ${SIZE.memLarge} records`,
    await kit.cli(args, { mock, stdout: out, rss: true, timeoutMs: 300_000 }),
  );
  if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
  const results = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
  if (results === 0) throw new Error('the --query export gave no records');
  kit.details.memoryQuery = { records: SIZE.memLarge, results, rssKiB: run.rssKiB, ms: run.ms, cpuMs: run.cpuMs };
  kit.targetRow({
    ...row,
    measured: `${mib(run.rssKiB)} (${int(results)} of ${int(SIZE.memLarge)} records kept, ${sec(run.ms)})`,
    cpu: cpuText(run.cpuMs),
    value: run.rssKiB / 1024,
    limit: TARGET.memPeakMiB,
    kind: 'max',
    unit: ' MiB',
    why: `${mib(run.rssKiB)} at peak`,
  });
}
