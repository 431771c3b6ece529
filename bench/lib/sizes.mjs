// How much work each section does: the full run (the figures docs/PERFORMANCE.md quotes) and
// `--quick` (small sizes, to exercise the harness in seconds). One table because sections share
// some (the small mock holds `memSmall` records; the install and doctor rows take `latencyRuns`).
import { MiB } from './format.mjs';

export const FULL = {
  startupRuns: 20,
  latencyRuns: 31,
  warmups: 2,
  exportRecords: 20_000,
  exportReps: 3,
  memSmall: 10_000,
  memLarge: 200_000,
  memReps: 3,
  fileBytes: 512 * MiB,
  fileReps: 3,
  scanBytes: 100 * MiB,
  scanReps: 3,
  importCreate: 10_000,
  importMemSmall: 10_000,
  importMemLarge: 200_000,
};

export const QUICK = {
  startupRuns: 5,
  latencyRuns: 5,
  warmups: 1,
  exportRecords: 2_000,
  exportReps: 1,
  memSmall: 2_000,
  memLarge: 20_000,
  memReps: 1,
  fileBytes: 16 * MiB,
  fileReps: 1,
  scanBytes: 8 * MiB,
  scanReps: 1,
  importCreate: 1_000,
  importMemSmall: 1_000,
  importMemLarge: 20_000,
};
