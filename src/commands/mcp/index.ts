// `appraisal mcp`: the CLI's verbs as Model Context Protocol tools for AI assistants, over stdio.
// Read-only by default; write tools only with --allow-write and never on a production profile;
// delete, key changes and leases never. Every call runs the verb as typed (call.ts), so each guard
// of the CLI holds. The SDK, the catalogue and the description are loaded only here.
import { SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineNounCommand } from '../../core/verb.js';
import type { McpFlags } from './session.js';

/** The service options a session passes on to its tool calls; a key file would need stdin, which is the protocol's. */
const TAKES = SERVICE_OPTIONS.filter((name) => name !== 'apiKeyFile');

export default defineNounCommand<McpFlags>({
  options: [
    { flags: '--allow-write', description: 'also offer create, update and link tools (never on a production profile)' },
    { flags: '--lease', description: 'run the session on a leased key with only the scopes its tools need, revoked when it ends' },
    {
      flags: '--ttl <duration>',
      description: 'with --lease: each key expires after this long (default 1h; renewed before then), even if the server is killed',
    },
    { flags: '--audit-log <path>', description: 'append one JSON line per tool call (time, tool, arguments, outcome, request ids)' },
    { flags: '--sql <target>', description: 'also offer the sql tool: read-only SQL over this file sync keeps (duckdb:PATH)' },
    { flags: '--sql-schema <name>', description: "with --sql: the schema the sql tool reads (sync's --schema)" },
  ],
  takes: TAKES,
  // Its tools bind their own operations when each call runs; the server itself calls none.
  calls: 'per-request',
  examples: [
    'appraisal mcp --profile staging',
    'appraisal mcp --profile staging --allow-write --lease --audit-log mcp-audit.ndjson',
    'appraisal mcp --profile staging --sql duckdb:appraisal.duckdb   # and SQL over what appraisal sync keeps there',
  ],
  notes:
    'Register it with an assistant as a stdio server whose command is `appraisal` and whose args are\n' +
    '["mcp", "--profile", "NAME"]. stdout carries protocol messages only; -v writes to stderr.',
  async run(ctx, _args, flags) {
    const { startSession } = await import('./session.js');
    await startSession(ctx, flags);
  },
});
