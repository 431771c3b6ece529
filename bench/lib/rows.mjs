// The report being built: rows (a figure against its target, a reference figure, or a row that was
// not measured or failed, with the reason), the detail sections of bench/results.md, and the load
// average each was measured under. A section may only write the rows it declared (its `rows()`),
// and a row it declared but did not write because it failed is marked FAILED, never left out.
import os from 'node:os';
import { pct, r2 } from './format.mjs';

export function createRecorder({ log }) {
  const rows = [];
  const sections = [];
  let failures = 0;
  /** The section running now: its title (numbered), its declared rows by id, its highest load. */
  let current;

  function sampleLoad() {
    if (current) current.load = Math.max(current.load, os.loadavg()[0]);
  }
  function push(row) {
    if (current && !current.planned.has(row.id)) throw new Error(`row ${row.id} is not declared by section ${current.name}`);
    rows.push(row);
  }

  /** A row whose figure is compared with a target: `kind` max (value ≤ limit) or min (value ≥ limit). */
  function targetRow({ id, benchmark, measured, cpu, target, value, limit, kind, why, unit = 'x' }) {
    const holds = kind === 'max' ? value <= limit : value >= limit;
    const u = (x) => (unit === 'x' ? `${r2(x)}x` : `${x.toFixed(1)}${unit}`);
    const gap =
      kind === 'max'
        ? `${u(value)} against at most ${u(limit)}: ${pct(value / limit - 1)} over the target`
        : `${u(value)} against at least ${u(limit)}: ${pct(1 - value / limit)} short of the target`;
    sampleLoad();
    push({
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
      load: Number((current?.load ?? 0).toFixed(2)),
    });
  }
  function infoRow({ id, benchmark, measured, cpu, target = 'reference, no target', value }) {
    sampleLoad();
    push({ id, benchmark, measured, cpu, target, value, holds: null, status: 'info', load: Number((current?.load ?? 0).toFixed(2)) });
  }
  function notMeasured(planned, reason) {
    for (const row of planned) push({ ...row, status: 'not-measured', reason, holds: null });
  }
  /** The section's part of bench/results.md's details: {about, table: {header, rows}, notes}. */
  function detail(part) {
    sections.push({ title: current.title, ...part });
  }

  /** Runs one section's `body`; a throw marks its unwritten rows FAILED with the reason. */
  async function run({ name, title, planned }, body) {
    const started = Date.now();
    current = { name, title, planned: new Map(planned.map((row) => [row.id, row])), load: 0 };
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
    log(`${name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s (highest load average ${current.load.toFixed(2)})`);
    current = undefined;
  }

  return { rows, sections, run, sampleLoad, targetRow, infoRow, notMeasured, detail, failures: () => failures };
}
