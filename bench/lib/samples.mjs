// Taking and summing up samples the same way in every section: variants run round-robin (so no
// variant always runs first, or right after the same one), medians of wall and CPU time, and the
// detail table's row for one variant.
import { median } from './proc.mjs';
import { cpuText, ms } from './format.mjs';

/**
 * Runs `variants` round-robin `rounds` times after `warmups` untimed rounds, rotating the starting
 * variant each round; `afterRound()` runs after each round (the load sampler). Each sample is
 * {ms, cpuMs, mockCpuMs}: wall, the child's CPU, and the mock's CPU during the run.
 */
export async function alternate(variants, rounds, warmups, runOne, afterRound = () => {}) {
  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  for (let round = 0; round < warmups + rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(round + k) % variants.length];
      const run = await runOne(variant, round);
      if (round >= warmups) samples[variant.key].push({ ms: run.ms, cpuMs: run.cpuMs, mockCpuMs: run.mockCpuMs });
    }
    afterRound();
  }
  return samples;
}

export const wallOf = (list) => median(list.map((r) => r.ms));
export const cpuOf = (list) => (list.some((r) => r.cpuMs === undefined) ? undefined : median(list.map((r) => r.cpuMs)));
export const mockCpuOf = (list) => (list.some((r) => r.mockCpuMs === undefined) ? undefined : median(list.map((r) => r.mockCpuMs)));
/** The run whose `by` is the median (the upper middle one of an even count). */
export const medianRun = (list, by) => [...list].sort((a, b) => by(a) - by(b))[list.length >> 1];
/** a + b, or undefined when either is (a CPU time that could not be read). */
export const plus = (a, b) => (a === undefined || b === undefined ? undefined : a + b);

export const STATS_HEADER = ['command', 'median wall', 'min', 'max', 'CPU (median)', 'mock CPU (median)', 'runs'];

/** One line of a section's detail table: median, min and max wall, CPU, mock CPU, runs. */
export function statsRow(label, samples, unit = ms) {
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
