// The bench's sections, in the order they run and are reported (bench/run.mjs; `--only` picks some).
// Each module's default export is one section: { name, title, needs?, targets, rows({SIZE, TARGET}),
// measure(kit, planned) }. Its rows, in its order, are the report's: there is no other list of rows.
// Start-up first (no mock), then the single-request rows, then the sections that start mocks of
// their own, build packages or move hundreds of megabytes.
import startup from './startup.mjs';
import latency from './latency.mjs';
import exportSection from './export.mjs';
import memory from './memory.mjs';
import files from './files.mjs';
import scan from './scan.mjs';
import importSection from './import.mjs';
import install from './install.mjs';
import doctor from './doctor.mjs';
import sync from './sync.mjs';
import webhooks from './webhooks.mjs';

export const SECTIONS = [startup, latency, doctor, exportSection, memory, files, scan, importSection, sync, webhooks, install];

/** Every section's targets in one object (results.json's `targets`; a section may read another's). */
export function allTargets() {
  return Object.assign({}, ...SECTIONS.map((section) => section.targets));
}
