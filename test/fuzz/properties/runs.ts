// How many cases each property runs. `npm test` passes a small bounded number (test/unit/
// fuzz-bounded.test.ts); `npm run fuzz` sets FUZZ_RUNS (2000): that many cases for each in-process
// property, and a quarter as many for each property that starts the CLI once per case.
// FUZZ_SEED replays a failure (fast-check prints the seed of a failing run).
import type fc from 'fast-check';

export type Weight = 'in-process' | 'process-per-case';

export function fuzzRuns(weight: Weight, fallback: number): number {
  const raw = Number(process.env.FUZZ_RUNS);
  if (!Number.isFinite(raw) || raw <= 0) return fallback;
  return weight === 'in-process' ? Math.floor(raw) : Math.max(1, Math.ceil(raw / 4));
}

/** Run count and seed; a property that starts a process per case reports its first failure unshrunk. */
export function fuzzParameters<T>(numRuns: number, weight: Weight): fc.Parameters<T> {
  const seed = process.env.FUZZ_SEED === undefined ? Number.NaN : Number(process.env.FUZZ_SEED);
  return {
    numRuns,
    ...(Number.isNaN(seed) ? {} : { seed }),
    ...(weight === 'process-per-case' ? { endOnFailure: true } : {}),
  };
}
