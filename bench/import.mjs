#!/usr/bin/env node
// The import section of the benchmarks (issue 27), each figure a ratio against a floor measured in the
// same run:
//   - 10,000 new properties at --concurrency 8 against the mock with 20 ms latency, vs a bare undici
//     client (bench/lib/import-floor.mjs) sending the same 10,000 POSTs at the same concurrency plus a
//     bare `node -e 0` start (target ≤ 1.3x);
//   - the same file again with --match parcelNumber (nothing changed: no write) vs a full
//     `props list` export of the same records (≤ 1.5x);
//   - peak RSS importing 200,000 rows ≤ 1.3x the peak for 10,000 rows and < 150 MiB (the file
//     streams; only the match index is held). Against a mock without latency, to finish in minutes.
// Each measured once (a full run takes several minutes: 230,000 creates). A module of its own so the
// bench runner can take it as a section (`measureImport`); run alone it prints its rows as JSON:
//
//   node bench/import.mjs            the sizes above
//   node bench/import.mjs --quick    1,000 / 1,000 / 20,000 rows, to exercise it
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startMock } from './lib/mock.mjs';
import { describeFailure, killAll, runTimed } from './lib/proc.mjs';

const ROOT = join(import.meta.dirname, '..');

export const IMPORT_TARGET = { createFloor: 1.3, unchangedExport: 1.5, memRatio: 1.3, memPeakMiB: 150 };

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

function nodeStartMs() {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    runs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return runs.sort((a, b) => a - b)[2];
}

/**
 * Measure the import figures. `o`: { bin, env (private HOME etc.), workDir, log, quick }.
 * Returns rows { id, figure, value, target, ok, ratio, note }.
 */
export async function measureImport(o) {
  const size = o.quick ? { create: 1_000, memSmall: 1_000, memLarge: 20_000 } : { create: 10_000, memSmall: 10_000, memLarge: 200_000 };
  const concurrency = 8;
  const latency = 20;
  const dir = join(o.workDir, 'import');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rows = [];
  const cli = async (mock, args, extra = {}) => {
    const run = await runTimed({
      cmd: process.execPath,
      args: [o.bin, ...args],
      env: { ...o.env, ...mock.env },
      cwd: dir,
      workDir: dir,
      rss: extra.rss,
      stdout: extra.stdout,
      timeoutMs: 1_800_000,
    });
    if (run.code !== 0) throw new Error(`appraisal ${args.join(' ')}: ${describeFailure(run)}`);
    return run;
  };

  // 1. Creating 10,000 properties vs the bare undici floor, each against a fresh mock with latency.
  o.log(`import: ${size.create} creates at concurrency ${concurrency}, ${latency} ms latency`);
  const inputs = writeInputs(dir, 'NEW', size.create, true);
  const importMock = await startMock({ bin: o.bin, records: 10, latency, cwd: ROOT, env: o.env, prerender: true });
  const floorMock = await startMock({ bin: o.bin, records: 10, latency, cwd: ROOT, env: o.env, prerender: true });
  try {
    const create = await cli(importMock, ['props', 'import', inputs.csv, '--match', 'parcelNumber', '--concurrency', String(concurrency)]);
    const floorRun = spawnSync(process.execPath, [join(ROOT, 'bench', 'lib', 'import-floor.mjs'), inputs.ndjson, String(concurrency)], {
      env: { ...o.env, ...floorMock.env },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (floorRun.status !== 0) throw new Error(`import floor: ${floorRun.stderr}`);
    const floor = JSON.parse(floorRun.stdout.trim().split('\n').pop());
    if (floor.records !== size.create) throw new Error(`import floor created ${floor.records} of ${size.create}`);
    const floorMs = floor.ms + nodeStartMs();
    const ratio = create.ms / floorMs;
    rows.push({
      id: 'import-create',
      figure: `Import: ${size.create.toLocaleString('en-US')} new properties, --concurrency ${concurrency}, ${latency} ms latency, vs bare undici POSTs`,
      value: `${(create.ms / 1000).toFixed(1)} s (CPU ${Math.round(create.cpuMs ?? 0)} ms) vs ${(floorMs / 1000).toFixed(1)} s`,
      ratio,
      target: `≤ ${IMPORT_TARGET.createFloor}x`,
      ok: ratio <= IMPORT_TARGET.createFloor,
    });

    // 2. The same file again: nothing changed, so no write; vs a full export of the same records.
    o.log(`import: the same ${size.create} rows again (unchanged) vs props list`);
    const unchanged = await cli(importMock, [
      'props',
      'import',
      inputs.csv,
      '--match',
      'parcelNumber',
      '--concurrency',
      String(concurrency),
      '--results',
      join(dir, 'unchanged.results.csv'),
    ]);
    const exported = await cli(importMock, ['props', 'list', '-o', 'ndjson', '--page-size', '100', '--concurrency', String(concurrency)], {
      stdout: join(dir, 'export.ndjson'),
    });
    const unchangedRatio = unchanged.ms / exported.ms;
    rows.push({
      id: 'import-unchanged',
      figure: `Import: the same ${size.create.toLocaleString('en-US')} rows again (no write) vs \`props list\` of the same records`,
      value: `${(unchanged.ms / 1000).toFixed(2)} s vs ${(exported.ms / 1000).toFixed(2)} s`,
      ratio: unchangedRatio,
      target: `≤ ${IMPORT_TARGET.unchangedExport}x`,
      ok: unchangedRatio <= IMPORT_TARGET.unchangedExport,
    });
  } finally {
    await importMock.stop();
    await floorMock.stop();
  }

  // 3. Peak RSS: 200,000 rows vs 10,000, against a mock without latency.
  const peaks = {};
  for (const count of [size.memSmall, size.memLarge]) {
    o.log(`import: peak RSS creating ${count} rows`);
    const mock = await startMock({ bin: o.bin, records: 10, cwd: ROOT, env: o.env, prerender: true });
    try {
      const name = `MEM${count}`;
      const { csv } = writeInputs(dir, name, count, false);
      const run = await cli(mock, ['props', 'import', csv, '--match', 'parcelNumber', '--concurrency', String(concurrency)], { rss: true });
      peaks[count] = { rssKiB: run.rssKiB, ms: run.ms };
      rmSync(csv, { force: true });
    } finally {
      await mock.stop();
    }
  }
  const small = peaks[size.memSmall].rssKiB / 1024;
  const large = peaks[size.memLarge].rssKiB / 1024;
  rows.push({
    id: 'import-memory',
    figure: `Import: peak RSS, ${size.memLarge.toLocaleString('en-US')} rows vs ${size.memSmall.toLocaleString('en-US')}`,
    value: `${large.toFixed(1)} MiB vs ${small.toFixed(1)} MiB (${(peaks[size.memLarge].ms / 1000).toFixed(1)} s for the large one)`,
    ratio: large / small,
    target: `≤ ${IMPORT_TARGET.memRatio}x and < ${IMPORT_TARGET.memPeakMiB} MiB`,
    ok: large / small <= IMPORT_TARGET.memRatio && large < IMPORT_TARGET.memPeakMiB,
  });
  if (!o.keep) rmSync(dir, { recursive: true, force: true });
  return rows;
}

// Run alone: `node bench/import.mjs [--quick] [--keep]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const work = join(ROOT, 'bench', '.work', 'import-run');
  mkdirSync(join(work, 'home'), { recursive: true });
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('APPRAISAL_') || /^(https?|no|all)_proxy$/i.test(key) || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  Object.assign(env, {
    HOME: join(work, 'home'),
    APPRAISAL_CONFIG_DIR: join(work, 'config'),
    XDG_CONFIG_HOME: join(work, 'xdg'),
    NO_COLOR: '1',
  });
  const log = (text) => process.stderr.write(`bench: ${text}\n`);
  log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism?.() ?? os.cpus().length} cores`);
  try {
    const rows = await measureImport({
      bin: join(ROOT, 'bin', 'appraisal.js'),
      env,
      workDir: work,
      log,
      quick: process.argv.includes('--quick'),
      keep: process.argv.includes('--keep'),
    });
    for (const row of rows)
      log(`${row.ok ? 'ok  ' : 'MISS'} ${row.figure}: ${row.value} = ${row.ratio.toFixed(2)}x (target ${row.target})`);
    process.stdout.write(`${JSON.stringify({ loadAverage: os.loadavg()[0], rows }, null, 2)}\n`);
  } finally {
    killAll();
    if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
  }
}
