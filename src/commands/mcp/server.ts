// The MCP server over stdio, built on the official SDK (loaded only by `appraisal mcp`). It lists the
// catalogue's tools and answers each call by running the verb in process (call.ts); stdout carries
// protocol messages and nothing else (every notice of ours goes to stderr through ctx.io). It ends
// when the client closes stdin or on SIGTERM/SIGINT, after revoking a leased key.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../../core/context.js';
import type { Env } from '../../core/env.js';
import type { AuditLog } from '../keys/public.js';
import { callTool, DEFAULT_LIMITS, ToolInputError, type CallOutcome } from './call.js';
import { CALLS_ACCEPTED, CallGate } from './call-gate.js';
import type { Tool } from './catalogue.js';
import { sanitiseJson, sanitiseText } from './sanitise.js';

export interface ServeOptions {
  tools: readonly Tool[];
  instructions: string;
  /** The environment the next tool call runs with (the leased key in use, when --lease). */
  env: () => Env;
  audit: AuditLog | undefined;
}

/** A tool error: its text quotes the service (and the tool's input), so it is sanitised as results are. */
function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: sanitiseText(text) }] };
}

function resultOf(tool: Tool, outcome: CallOutcome): CallToolResult {
  if (!outcome.ok) return toolError(outcome.error ?? 'the call failed');
  const result = sanitiseJson(outcome.result);
  const structured: Record<string, unknown> = tool.isList
    ? {
        records: result,
        more: outcome.more === true,
        ...(outcome.more ? { note: 'more records exist: narrow the filters or raise max_items (at most 100)' } : {}),
      }
    : result !== null && typeof result === 'object' && !Array.isArray(result)
      ? (result as Record<string, unknown>)
      : { result };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Serves until the client goes away or the process is told to stop. */
export async function serve(ctx: Context, options: ServeOptions): Promise<void> {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const gate = new CallGate();
  const server = new Server(
    { name: 'appraisal', version: ctx.version },
    { capabilities: { tools: {} }, instructions: options.instructions },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: tool.kind === 'read', destructiveHint: false, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) return toolError(`no tool ${request.params.name}`);
    const input = (request.params.arguments ?? {}) as Record<string, unknown>;
    const run = async (): Promise<CallOutcome> => {
      try {
        // A call the client cancelled while it waited its turn is not run; one running is stopped.
        return await callTool(ctx, tool, input, options.env(), DEFAULT_LIMITS, extra.signal);
      } catch (error) {
        if (!(error instanceof ToolInputError)) throw error;
        return { ok: false, exitCode: 2, error: `error: ${error.message}`, requestIds: [] };
      }
    };
    // Refused as a 429 is (exit 8 in the audit log): too many at once, to be sent again later.
    const outcome: CallOutcome = (await gate.run(run)) ?? {
      ok: false,
      exitCode: 8,
      error: `error: ${CALLS_ACCEPTED} tool calls are already running or waiting; send this one again once some have been answered`,
      requestIds: [],
    };
    await options.audit?.append({
      time: ctx.now().toISOString(),
      tool: tool.name,
      arguments: input,
      outcome: outcome.ok ? 'ok' : 'error',
      exitCode: outcome.exitCode,
      ...(outcome.error ? { error: outcome.error } : {}),
      requestIds: outcome.requestIds,
    });
    return resultOf(tool, outcome);
  });

  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  const ended = new Promise<void>((resolve) => {
    ctx.io.stdin.once('end', resolve);
    ctx.io.stdin.once('close', resolve);
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await ended;
  await server.close().catch(() => undefined);
}
