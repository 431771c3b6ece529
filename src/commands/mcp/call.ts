// One tool call: the tool's input becomes the verb's command line, which runs inside this process
// (Context.runCommand) exactly as if typed — flag checks, guards, description binding, redaction —
// with `-o json`, no prompts, a deadline and a cap on what it may print. Its stdout is the result;
// its `error:`/`hint:` lines are the tool error; its -v trace gives the request ids for the audit.
import { Writable } from 'node:stream';
import type { Context } from '../../core/context.js';
import type { Env } from '../../core/env.js';
import { listenForAbort } from '../../core/shared-signal.js';
import { LIST_CAP_DEFAULT, LIST_CAP_MAX, type Tool } from './catalogue.js';
import { toolWords } from './tool-words.js';

export interface CallLimits {
  /** The whole call, requests and output included. */
  timeoutMs: number;
  /** The most a result may print; past it the call ends as an error. */
  maxBytes: number;
}

export const DEFAULT_LIMITS: CallLimits = { timeoutMs: 60_000, maxBytes: 4 * 1024 * 1024 };

export interface CallOutcome {
  ok: boolean;
  exitCode: number;
  /** The parsed `-o json` output of a successful call. */
  result?: unknown;
  /** A list call had more records than it returns. */
  more?: boolean;
  /** The CLI's one-line error and hint, for a failed call. */
  error?: string;
  requestIds: string[];
}

/** Input the tool does not declare, or of the wrong shape, is refused before anything runs. */
export class ToolInputError extends Error {}

function text(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new ToolInputError(`${name} must be a string`);
}

/** The command line for a tool call: flags as `--flag=value` and arguments after `--`, so no value is read as a flag. */
export function commandLine(tool: Tool, input: Readonly<Record<string, unknown>>): { argv: string[]; cap: number | undefined } {
  const known = new Set([...tool.arguments, ...tool.options.map((option) => option.property), 'max_items', 'fields', 'data']);
  const unknown = Object.keys(input).filter((name) => !known.has(name) || (!tool.isList && (name === 'max_items' || name === 'fields')));
  if (unknown.length > 0) throw new ToolInputError(`${tool.name} takes no ${unknown.join(', ')}`);
  const argv = [...tool.path.split(' '), '--output=json', '--no-input', '--verbose'];
  let cap: number | undefined;
  if (tool.isList) {
    const asked = input.max_items === undefined ? LIST_CAP_DEFAULT : Number(input.max_items);
    if (!Number.isInteger(asked) || asked < 1 || asked > LIST_CAP_MAX)
      throw new ToolInputError(`max_items must be a whole number from 1 to ${LIST_CAP_MAX}`);
    cap = asked;
    // One more than asked: its presence is how the answer knows there are more.
    argv.push(`--max-items=${asked + 1}`);
    if (input.fields !== undefined) argv.push(`--fields=${text(input.fields, 'fields')}`);
  }
  for (const option of tool.options) {
    const value = input[option.property];
    if (value === undefined || value === null) continue;
    if (option.property === 'data') {
      if (typeof value !== 'object' || Array.isArray(value)) throw new ToolInputError('data must be an object (the record)');
      argv.push(`${option.flag}=${JSON.stringify(value)}`);
    } else if (!option.takesValue) {
      if (typeof value !== 'boolean') throw new ToolInputError(`${option.property} must be true or false`);
      if (value !== option.negated) argv.push(option.flag);
    } else if (option.repeatable) {
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) argv.push(`${option.flag}=${text(item, option.property)}`);
    } else {
      argv.push(`${option.flag}=${text(value, option.property)}`);
    }
  }
  argv.push(...tool.fixed);
  argv.push('--');
  for (const name of tool.arguments) {
    const value = input[name];
    if (value === undefined) continue;
    const word = text(value, name);
    // On a command line `-` and `@FILE` read stdin or a file; the server's files are not the assistant's to read.
    if (tool.literal.includes(name) && (word === '-' || (word.startsWith('@') && word.length > 1)))
      throw new ToolInputError(`${name} is the text itself: this tool reads no file (@FILE) and no stdin (-)`);
    argv.push(word);
  }
  return { argv, cap };
}

/** A stream that keeps what is written, up to `max` bytes; `over` says whether more was offered. */
class Capture extends Writable {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  over = false;
  constructor(
    private readonly max: number,
    private readonly onOver: () => void = () => {},
  ) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (this.size + bytes.length > this.max) {
      if (!this.over) this.onOver();
      this.over = true;
    } else {
      this.chunks.push(bytes);
      this.size += bytes.length;
    }
    callback();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

const REQUEST_ID = /^< .*, request id ([^)\s]+)\)$/;

/** The outcome of a call the client cancelled (notifications/cancelled): never sent, kept for the audit log. */
const CANCELLED: CallOutcome = { ok: false, exitCode: 130, error: 'the client cancelled the call', requestIds: [] };

/**
 * Runs one tool call to its end; never throws for what the command did (that is the outcome).
 * `cancelled`: the client's cancellation of this call, which stops the command as Ctrl-C would.
 */
export async function callTool(
  ctx: Context,
  tool: Tool,
  input: Readonly<Record<string, unknown>>,
  env: Env,
  limits: CallLimits = DEFAULT_LIMITS,
  cancelled?: AbortSignal,
): Promise<CallOutcome> {
  const { argv, cap } = commandLine(tool, input);
  if (cancelled?.aborted) return CANCELLED;
  const stop = new AbortController();
  const deadline = setTimeout(() => stop.abort(), limits.timeoutMs);
  const stopListening = listenForAbort(ctx.signal, () => stop.abort());
  const stopCancelling = cancelled ? listenForAbort(cancelled, () => stop.abort()) : () => undefined;
  const stdout = new Capture(limits.maxBytes, () => stop.abort());
  const stderr = new Capture(256 * 1024);
  let exitCode: number;
  try {
    exitCode = await ctx.runCommand(argv, { stdout, stderr, signal: stop.signal, env });
  } finally {
    clearTimeout(deadline);
    stopListening();
    stopCancelling();
  }
  const lines = stderr.text().split('\n');
  const requestIds = lines.flatMap((line) => REQUEST_ID.exec(line)?.slice(1, 2) ?? []);
  // Stopped part-way: the audit log still names the requests it made.
  if (cancelled?.aborted) return { ...CANCELLED, requestIds };
  if (stdout.over) {
    return { ok: false, exitCode: 9, requestIds, error: `the result is over ${limits.maxBytes} bytes; ask for fewer records or fields` };
  }
  if (exitCode !== 0 && stop.signal.aborted && !ctx.signal.aborted) {
    return { ok: false, exitCode, requestIds, error: `the call took over ${Math.round(limits.timeoutMs / 1000)} s and was stopped` };
  }
  if (exitCode !== 0) {
    const said = lines.filter((line) => line.startsWith('error: ') || line.startsWith('hint: '));
    return { ok: false, exitCode, requestIds, error: toolWords(said.join('\n'), tool) || `the command failed (exit ${exitCode})` };
  }
  const output = stdout.text().trim();
  let result: unknown = null;
  try {
    if (output !== '') result = JSON.parse(output);
  } catch {
    // Every tool runs with -o json; anything else is our fault, said as a tool error, never a crash.
    return { ok: false, exitCode: 1, requestIds, error: `error: ${tool.path} did not print JSON` };
  }
  let more: boolean | undefined;
  if (cap !== undefined && Array.isArray(result)) {
    more = result.length > cap;
    result = result.slice(0, cap);
  }
  return { ok: true, exitCode, result, ...(more !== undefined ? { more } : {}), requestIds };
}
