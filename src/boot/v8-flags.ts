// Every V8 flag the CLI sets, and why: here and nowhere else. The application never imports node:v8
// (or this folder): what it may ask of V8 it is handed by the process entry (cli.ts) as a function in
// its ProcessDeps (`favourSmallHeap`), so a test running main() in process keeps V8 as it is.
import { setFlagsFromString } from 'node:v8';

/**
 * Set before the command bundle is compiled, both in a run and when the build produces the code
 * cache (scripts/code-cache.mjs loads the bundle through bundle-loader.ts): a code cache carries a
 * hash of the flags in force and V8 rejects it under others.
 *
 * `--liftoff-only`: undici parses HTTP in WebAssembly. V8 would also optimise that code in the
 * background and a finished command waits for it before it can exit (~100-150 ms); the baseline
 * compiler is plenty for a command line (export and transfer throughput measured unchanged in bench/).
 */
export const BUNDLE_V8_FLAGS: readonly string[] = ['--liftoff-only'];

export function setBundleFlags(): void {
  for (const flag of BUNDLE_V8_FLAGS) setFlagsFromString(flag);
}

/** Asked by paging (core/http/paginate.ts) from SMALL_HEAP_FROM_RECORDS records on, and by import (a file of 3 MiB or more before its first row, else at its 50,000th). */
export const SMALL_HEAP_FLAG = '--optimize-for-size';

/**
 * `--optimize-for-size`, set at run time when a long export starts (or a long import: 200,000 rows
 * ~180 → ~107 MiB): otherwise V8's young generation
 * and heap limits grow with the export's allocation rate, and peak RSS with the record count
 * (200,000 records: ~138 → ~91 MiB; 10,000: ~78 MiB either way). It costs ~6% of CPU, so paging asks
 * for it only from 50,000 records on, and other commands keep V8's defaults. Set after the bundle
 * was compiled, so the code cache is not concerned.
 */
export function favourSmallHeap(): void {
  setFlagsFromString(SMALL_HEAP_FLAG);
}
