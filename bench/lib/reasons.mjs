// Why a target may be missed, by row id: what the measurements of issue 19 found. The README's
// performance section (scripts/bench-readme.mjs) quotes the reason under every row that misses.
// Keep each one true to the code: change it when the cause changes.
export const REASONS = {
  'startup-help':
    '`--help` is answered from help text rendered at build time (dist/help.json), without commander; what is left is reading the bundle entry and the JSON file, on a machine whose load moves a 50 ms figure by ±20%.',
  'latency-get':
    "curl is a small C program that trusts only the given CA; the CLI pays Node's start-up, reading its 1 MB command bundle and deserializing its V8 code cache (~10 ms of CPU), initialising undici, commander and the command's modules, reading the cached service description, and a TLS handshake with Node's root store plus the extra CA. The bare node:https and undici rows show how much of that any Node client pays.",
  'export-floor':
    'The floor is a client already running: the CLI also starts Node, loads undici and its modules, and checks, encodes and writes every record.',
  'export-cpu':
    'Per record the CLI checks the envelope and the id, keeps the id for the duplicate check, encodes the line and writes it; the floor only parses the pages.',
  'export-speedup':
    'The mock shares the two cores with the client: at concurrency 8 both are CPU-bound, so the ratio tracks the machine more than the CLI.',
  'download-throughput':
    'The CLI hashes the bytes as they arrive, writes a temporary file, fsyncs and renames it; a busy machine slows the fsync of 512 MiB most.',
  'memory-ratio':
    'The live heap stays flat for any export (pages wait as bytes; from 50,000 records V8 runs with --optimize-for-size); what still grows with the record count is the duplicate-id table (16 bytes per id, at most 75% full: 4.1 MiB at 200,000) and page buffers awaiting collection. The smaller command bundle lowered both peaks (10,000 records: 76.6 → ~72 MiB; 200,000: 90.7 → ~87 MiB), so the same growth is a larger share of a smaller base. Reusing page buffers, or freeing each at once, made V8 collect less often and grow its heap instead (peaks of 93–98 MiB): measured and dropped.',
  'memory-peak': 'See the memory ratio.',
  doctor:
    "doctor connects twice: its own TLS probe (to read the chain and its dates, trusting the roots plus the CA file as the client does) and the CLI's client for the key check, each a full handshake; with DNS and TCP probes and the offline checks on top of `props get`'s cost (Node's start-up, the bundle, undici, one handshake).",
  'feature-contract':
    "A CPU profile of the 20,000-record export with --validate (2026-11-27, second session) puts ~0.2 s of CPU above the same export without it: ajv-formats' full `date-time` check (calendar and time-zone, two per record, ~1.7 µs each) ~70 ms, compiling the record schemas ~30 ms, loading the 300 KB ajv bundle with re2js (the linear-time engine for the description's patterns) ~25 ms without a code cache, the generated validate functions ~15 ms, and more GC. A code cache for the vendored bundle would save at most its load; the format's `fast` mode (one regular expression, no calendar check) was not taken: a contract check that accepts 2025-02-30 is weaker. Against an export of ~0.9 s that reads 0% to 33% over between runs on the same day (0%, 33%, 22% on 2026-11-27), as the fixed CPU overlaps the latency or not.",
  'import-unchanged':
    "The floor is `props list` alone; the unchanged import reads the same list (its match index, each record kept as JSON text), then parses the 10,000-row CSV (csv-parse), types every cell by the request schema, parses each matched record back to compare it field by field, and writes a results file of 10,000 lines. A CPU profile (2026-11-27) spreads the ~0.45 s of CPU above the list's over those steps (CSV parsing ~90 ms, the index's JSON text and its parse-back ~90 ms, typing ~40 ms, the results file ~60 ms, GC ~80 ms), none of them a hot spot; setting fields by assignment instead of defineProperty took a few per cent. The import is CPU-bound on the client's core while the mock uses the other.",
  'import-memory':
    'What grows with the row count is what the import must remember: the match values seen so far (a duplicate row is refused, not sent twice) and a window of up to 4,096 rows planned ahead of a slow one. The 10,000-row base already holds the bundle, csv-parse and the description. Between runs the same import peaked 129–157 MiB at 200,000 rows (GC timing) until round four; the full run of 2026-11-28 read 184 MiB and the unchanged re-import 1.90x. The quick section before and after import moved onto the output plan reads the same, so the growth came earlier in the round (the input now decoded in --encoding with per-row limits, and done rows checked against the service): not yet profiled.',
  'import-memory-peak': 'See the import memory ratio.',
  'sync-postgres':
    'The rows go to PostgreSQL as one JSON parameter per batch of at most 1,000, each batch committed with its state row (crash safety); the floor is one `\\copy` of a file already written. COPY from the CLI needs a COPY stream for the driver (pg-copy-streams, not a dependency) and was not measured. Per record the CLI also checks it against the published schema and builds its typed cells.',
  'sync-incremental':
    "A fixed cost per run, not per record: loading DuckDB (~110 ms of CPU: its package is 60 files plus a 70 MB native library), opening the database file (~40 ms), compiling the record check (~60 ms) and the checkpoint at close (~20 ms), against a floor of one short `props list` (~0.3 s). The service clock and the compile now overlap the open; bundling DuckDB's JavaScript as a vendor bundle (~35 ms) is the next step. Skipping the checkpoint was refused: it leaves a .wal beside the file, and a copy of the .duckdb alone would miss the latest rows.",
  'sync-memory-ratio':
    "What grows with the record count is DuckDB's own: the primary-key index (~18 MiB at 200,000) and table data held between checkpoints; the JavaScript side pages through ids 10,000 at a time and appends rows straight into the table. Measured and dropped: a low allocator flush threshold (−35 MiB, +40% CPU), a lower checkpoint threshold (several times slower), a lower memory_limit (no difference).",
  webhooks:
    'Each event is kept in the fsynced outbox beside the state file before it is delivered (a crash loses no event and keeps its webhook-id), and each delivery is signed; the floor POSTs the same bodies from memory. A quick run earlier in the round read 0.89x; not yet profiled at full size.',
};
