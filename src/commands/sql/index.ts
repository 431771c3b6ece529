// `appraisal sql STATEMENT`: one read-only SQL statement over the DuckDB file `appraisal sync` keeps,
// printed like any list (table, json, ndjson, csv, parquet; --out, --fields). Thin: declares the
// argument and flags and hands over to run.ts. Calls no operation of the service. An MCP read tool
// only when `appraisal mcp --sql duckdb:PATH` names the database: the assistant writes statements,
// never the file they read (fromServer). The one-line summary is the registry's.
import { CSV_OPTIONS, OUTPUT_OPTIONS } from '../../core/global-options.js';
import { WIDE_OPTION } from '../../core/output-flags.js';
import { defineNounCommand } from '../../core/verb.js';
import { DEFAULT_TARGET } from '../sync/public.js';
import { runSql, type SqlFlags } from './run.js';

const HOW_IT_WORKS = `
The database:
  The file sync writes (--to duckdb:PATH, default ${DEFAULT_TARGET.slice('duckdb:'.length)} here), opened read-only. A
  statement reads its tables (properties, assignments, clients, contacts, files, their child tables
  such as assignments__property_ids, and _appraisal_sync, sync's state) and nothing else: no other
  file, URL or extension, and no setting changes. One statement. --schema NAME reads the schema
  a sync was given. A file a sync is writing cannot be read until it has finished (exit 2).
  Numbers print as numbers (count(*) included) unless a JavaScript number cannot hold them exactly
  (exit 2: CAST them to VARCHAR); times as RFC 3339, dates as YYYY-MM-DD, JSON columns as JSON.`;

export default defineNounCommand<SqlFlags>({
  arguments: [
    {
      name: 'statement',
      description: 'one SQL statement (DuckDB SQL), quoted for the shell',
      required: true,
      fileForms: true,
    },
  ],
  options: [
    { flags: '--to <target>', description: `the database sync writes: duckdb:PATH (default: ${DEFAULT_TARGET})`, fromServer: 'sql' },
    { flags: '--schema <name>', description: 'the schema to read (default: main)', fromServer: 'sqlSchema' },
    WIDE_OPTION,
  ],
  takes: [...OUTPUT_OPTIONS, ...CSV_OPTIONS, 'maxItems'],
  calls: 'none',
  tool: 'read',
  // Its rows are capped as a list's are when it is a tool (--max-items).
  lists: true,
  examples: [
    'appraisal sql "SELECT status, count(*) AS n FROM assignments GROUP BY status ORDER BY n DESC"',
    'appraisal sql "SELECT p.name, a.status FROM assignments a JOIN assignments__property_ids l ON l.parent_id = a.id JOIN properties p ON p.id = l.value" -o csv --out linked.csv',
    'appraisal sql "SELECT family, watermark, records FROM _appraisal_sync" --to duckdb:ops.duckdb --schema acme',
    'appraisal sql @fees-by-status.sql -o csv --out fees.csv',
  ],
  notes: HOW_IT_WORKS,
  run: (ctx, args, flags) => runSql(ctx, args, flags),
});
