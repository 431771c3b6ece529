// Section "sync": `appraisal sync props` against a mock with 20 ms latency per request (c=8), each
// against a floor from the same run: into DuckDB vs `props list -o ndjson` plus DuckDB's own
// read_json load (bench/sync-load.mjs); into PostgreSQL vs the same export plus `psql \copy` of its
// lines (bench/sync-cluster.mjs starts a private cluster); an incremental run with 100 changed
// records vs `props list --updated-since` of the same records; and peak RSS of a large sync vs a
// small one, and against a fixed bound.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { assertCount, checkNdjson } from './lib/check.mjs';
import { cpuText, int, mib, r2, sec } from './lib/format.mjs';
import { runTimed } from './lib/proc.mjs';
import { cpuOf, wallOf } from './lib/samples.mjs';
import { startCluster } from './sync-cluster.mjs';

const LATENCY_MS = 20;
const CONCURRENCY = 8;
const PAGE_SIZE = 100;
const CHANGED = 100;

export default {
  name: 'sync',
  title: 'Sync into a database',
  targets: {
    syncDuckdb: 1.3, // x export + DuckDB read_json
    syncPostgres: 1.5, // x export + psql \copy
    syncIncremental: 1.5, // x props list --updated-since
    syncMemRatio: 1.3, // large / small peak RSS
    syncMemPeakMiB: 250,
  },
  rows: ({ SIZE, TARGET }) => [
    {
      id: 'sync-duckdb',
      benchmark: `Sync ${int(SIZE.exportRecords)} properties into DuckDB (c=${CONCURRENCY}, ${LATENCY_MS} ms) vs \`export -o ndjson\` + DuckDB \`read_json\` load`,
      target: `≤ ${TARGET.syncDuckdb}x`,
    },
    {
      id: 'sync-postgres',
      benchmark: `Sync ${int(SIZE.exportRecords)} properties into PostgreSQL vs \`export -o ndjson\` + \`psql \\copy\``,
      target: `≤ ${TARGET.syncPostgres}x`,
    },
    {
      id: 'sync-incremental',
      benchmark: `Incremental sync, ${CHANGED} changed of ${int(SIZE.exportRecords)}, vs \`props list --updated-since\` of the same`,
      target: `≤ ${TARGET.syncIncremental}x`,
    },
    {
      id: 'sync-memory-ratio',
      benchmark: `Sync memory: peak RSS, ${int(SIZE.memLarge)} vs ${int(SIZE.memSmall)} properties into DuckDB`,
      target: `≤ ${TARGET.syncMemRatio}x`,
    },
    {
      id: 'sync-memory-peak',
      benchmark: `Sync memory: peak RSS at ${int(SIZE.memLarge)} properties`,
      target: `< ${TARGET.syncMemPeakMiB} MiB`,
    },
  ],
  async measure(kit, planned) {
    const { RUN, SIZE, TARGET, ENV } = kit;
    const N = SIZE.exportRecords;
    const mock = await kit.mock({ records: N, seed: 5, latency: LATENCY_MS, http: true, prerender: false });
    const cluster = await startCluster();
    try {
      const ndjson = join(RUN, 'sync-export.ndjson');
      const listArgs = ['props', 'list', '-o', 'ndjson', '--page-size', String(PAGE_SIZE), '--concurrency', String(CONCURRENCY)];
      const syncArgs = ['sync', 'props', '--page-size', String(PAGE_SIZE), '--concurrency', String(CONCURRENCY), '-o', 'json'];
      const samples = { duck: [], duckFloor: [], pg: [], pgFloor: [], inc: [], incFloor: [] };
      const exportOnce = async () => {
        const run = kit.ensureOk('props list', await kit.cli(listArgs, { mock, stdout: ndjson }));
        assertCount('props list', await checkNdjson(ndjson), N);
        return run;
      };
      for (let rep = 0; rep < SIZE.exportReps; rep++) {
        const file = join(RUN, `sync-${rep}.duckdb`);
        rmSync(file, { force: true });
        const sync = kit.ensureOk('sync into DuckDB', await kit.cli([...syncArgs, '--to', `duckdb:${file}`], { mock }));
        samples.duck.push({ ms: sync.ms, cpuMs: sync.cpuMs });
        const exported = await exportOnce();
        const floorDb = join(RUN, `floor-${rep}.duckdb`);
        rmSync(floorDb, { force: true });
        const load = kit.ensureOk(
          'DuckDB read_json',
          await runTimed({
            cmd: kit.NODE,
            args: [join(kit.ROOT, 'bench', 'sync-load.mjs'), ndjson, floorDb],
            env: ENV,
            cwd: kit.ROOT,
            workDir: RUN,
            timeoutMs: 300_000,
          }),
        );
        samples.duckFloor.push({ ms: exported.ms + load.ms, cpuMs: (exported.cpuMs ?? NaN) + (load.cpuMs ?? NaN) });
        rmSync(file, { force: true });
        rmSync(`${file}.wal`, { force: true });
        rmSync(floorDb, { force: true });

        if (cluster) {
          const pg = kit.ensureOk(
            'sync into PostgreSQL',
            await kit.cli([...syncArgs, '--to', cluster.url, '--schema', `full_${rep}`], { mock }),
          );
          samples.pg.push({ ms: pg.ms, cpuMs: pg.cpuMs });
          cluster.psql(`CREATE TABLE floor_${rep} (doc jsonb)`);
          const copy = kit.ensureOk(
            'psql \\copy',
            await runTimed({
              cmd: cluster.psqlCommand[0],
              args: [
                ...cluster.psqlCommand.slice(1),
                '-c',
                `\\copy floor_${rep}(doc) FROM '${ndjson}' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')`,
              ],
              env: cluster.env,
              cwd: RUN,
              workDir: RUN,
              timeoutMs: 300_000,
            }),
          );
          if (cluster.psql(`SELECT count(*) FROM floor_${rep}`) !== String(N)) throw new Error('psql \\copy did not load every line');
          samples.pgFloor.push({ ms: exported.ms + copy.ms, cpuMs: (exported.cpuMs ?? NaN) + (copy.cpuMs ?? NaN) });
        }
        kit.sampleLoad();
        kit.log(`sync: full round ${rep + 1}/${SIZE.exportReps}`);
      }

      // Incremental: a synced database, then CHANGED records changed before each round.
      const incFile = join(RUN, 'sync-inc.duckdb');
      rmSync(incFile, { force: true });
      kit.ensureOk('first sync', await kit.cli([...syncArgs, '--to', `duckdb:${incFile}`], { mock }));
      const first = await fetch(`${mock.baseUrl}/api/properties?page=1&limit=${CHANGED}`, { headers: { 'x-api-key': mock.apiKey } });
      const ids = (await first.json()).items.map((item) => item.id);
      for (let rep = 0; rep < SIZE.exportReps; rep++) {
        for (const id of ids) {
          const answer = await fetch(`${mock.baseUrl}/api/properties/${id}`, {
            method: 'PATCH',
            headers: { 'x-api-key': mock.apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Changed in round ${rep}` }),
          });
          if (!answer.ok) throw new Error(`PATCH ${id}: ${answer.status}`);
        }
        const summaryFile = join(RUN, 'sync-inc.json');
        const inc = kit.ensureOk(
          'incremental sync',
          await kit.cli([...syncArgs, '--to', `duckdb:${incFile}`], { mock, stdout: summaryFile }),
        );
        const summary = JSON.parse(readFileSync(summaryFile, 'utf8')).families.properties;
        if (summary.changed < CHANGED) throw new Error(`incremental sync saw ${summary.changed} changed, expected ${CHANGED}`);
        samples.inc.push({ ms: inc.ms, cpuMs: inc.cpuMs });
        const list = kit.ensureOk(
          'props list --updated-since',
          await kit.cli([...listArgs, '--updated-since', summary.since], { mock, stdout: ndjson }),
        );
        samples.incFloor.push({ ms: list.ms, cpuMs: list.cpuMs });
      }
      rmSync(incFile, { force: true });
      rmSync(ndjson, { force: true });

      const row = (id, a, b, limit, what) =>
        kit.targetRow({
          ...planned[id],
          measured: `${r2(wallOf(a) / wallOf(b))}x (${sec(wallOf(a))} vs ${sec(wallOf(b))})`,
          cpu: `${cpuText(cpuOf(a))} vs ${cpuText(cpuOf(b))}`,
          value: wallOf(a) / wallOf(b),
          limit,
          kind: 'max',
          why: `${what} takes ${sec(wallOf(a) - wallOf(b))} more than its floor`,
        });
      row('sync-duckdb', samples.duck, samples.duckFloor, TARGET.syncDuckdb, 'sync into DuckDB');
      if (cluster) row('sync-postgres', samples.pg, samples.pgFloor, TARGET.syncPostgres, 'sync into PostgreSQL');
      else kit.notMeasured([planned['sync-postgres']], 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin)');
      row('sync-incremental', samples.inc, samples.incFloor, TARGET.syncIncremental, 'the incremental sync');
      kit.details.sync = { records: N, latencyMs: LATENCY_MS, concurrency: CONCURRENCY, changed: CHANGED, samples };
    } finally {
      await mock.stop();
      await cluster?.stop();
    }
    await memoryRows(kit, planned);
  },
};

async function memoryRows(kit, planned) {
  const { RUN, SIZE, TARGET } = kit;
  const peaks = {};
  for (const [key, records] of [
    ['small', SIZE.memSmall],
    ['large', SIZE.memLarge],
  ]) {
    const mock = await kit.mock({ records, seed: 6, http: true, startTimeoutMs: 300_000 });
    try {
      const file = join(RUN, `sync-mem-${key}.duckdb`);
      rmSync(file, { force: true });
      const run = kit.ensureOk(
        `sync of ${records}`,
        await kit.cli(['sync', 'props', '--page-size', String(PAGE_SIZE), '--to', `duckdb:${file}`], {
          mock,
          rss: true,
          timeoutMs: 900_000,
        }),
      );
      if (run.rssKiB === undefined) throw new Error('peak RSS could not be read');
      peaks[key] = run.rssKiB;
      rmSync(file, { force: true });
      rmSync(`${file}.wal`, { force: true });
    } finally {
      await mock.stop();
    }
  }
  kit.targetRow({
    ...planned['sync-memory-ratio'],
    measured: `${r2(peaks.large / peaks.small)}x (${mib(peaks.large)} vs ${mib(peaks.small)})`,
    value: peaks.large / peaks.small,
    limit: TARGET.syncMemRatio,
    kind: 'max',
    why: `the ${int(SIZE.memLarge)}-record sync peaks ${mib(peaks.large - peaks.small)} higher`,
  });
  kit.targetRow({
    ...planned['sync-memory-peak'],
    measured: mib(peaks.large),
    value: peaks.large / 1024,
    limit: TARGET.syncMemPeakMiB,
    kind: 'max',
    unit: ' MiB',
    why: `${mib(peaks.large)} at peak`,
  });
}
