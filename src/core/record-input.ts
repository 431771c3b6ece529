// The record a create/update sends, from `--data JSON|@file|-` as the base, then `-f key=value`
// (strings) and `-F key=value` (JSON-typed) applied in order, dotted keys making nested objects.
// Every problem is a one-line UsageError (exit 2) before any request is made.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Context } from './context.js';
import { InterruptedError, UsageError } from './errors.js';
import { quoteInput } from './ids.js';

export interface RecordInputOptions {
  /** --data: JSON text, @file, or - (stdin). */
  data?: string | undefined;
  /** -f key=value: string values; dotted keys make nested objects. */
  fields?: string[] | undefined;
  /** -F key=value: the value read as JSON (12, true, null, [..], {..}), else kept as a string. */
  typedFields?: string[] | undefined;
}

/** Larger input is certainly a mistake (a wrong file), and would be read into memory. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Keys that could reach an object's prototype when merged; never field names of a record. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

// ---- reading --data -------------------------------------------------------------------------

function decode(bytes: Uint8Array, source: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${source}: not UTF-8 text`);
  }
  // A byte-order mark from a Windows editor is not part of the JSON.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function readStdin(ctx: Context, stdin: Readable, source: string): Promise<string> {
  if (ctx.io.stdinIsTTY) {
    throw new UsageError(`--data - reads stdin, but stdin is a terminal`, {
      hint: 'pipe the record in, e.g. `cat record.json | appraisal props create --data -`, or use --data @record.json',
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const signal = ctx.signal;
  const reading = (async () => {
    for await (const chunk of stdin) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > MAX_INPUT_BYTES) throw new UsageError(`${source}: input is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
      chunks.push(buffer);
    }
  })();
  // Ctrl-C while waiting for input that never ends.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new InterruptedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  reading.catch(() => undefined);
  aborted.catch(() => undefined);
  try {
    await Promise.race([reading, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  return decode(Buffer.concat(chunks), source);
}

async function readDataFile(ctx: Context, name: string, source: string): Promise<string> {
  if (name === '') throw new UsageError('--data @ needs a file name, e.g. --data @record.json');
  const path = resolve(ctx.cwd, name);
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new UsageError(`${source}: is a directory, not a file`);
    if (info.size > MAX_INPUT_BYTES) throw new UsageError(`${source}: file is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
    return decode(await readFile(path), source);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${source}: file not found`);
    if (code === 'EACCES' || code === 'EPERM') throw new UsageError(`${source}: permission denied`);
    if (code === 'EISDIR') throw new UsageError(`${source}: is a directory, not a file`);
    throw new UsageError(`${source}: cannot read the file (${code ?? (error as Error).message})`);
  }
}

// ---- JSON errors that say where -------------------------------------------------------------

class JsonSyntaxError {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Where and why `text` is not JSON. V8's own messages give no position for some errors
 * ("Unexpected token '}'"), so the first error is found again with a small scanner.
 */
export function locateJsonError(text: string): { position: number; reason: string } | undefined {
  let i = 0;
  const fail = (reason: string): never => {
    throw new JsonSyntaxError(i, i >= text.length ? 'unexpected end of input' : reason);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in a string (write it as an escape, e.g. \\n)');
      if (c === 0x5c) {
        i++;
        const e = text[i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('invalid \\u escape');
          i += 5;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail('invalid escape in a string');
      }
      i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail('nested too deeply');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail("expected ':' after a property name");
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail("expected ',' or '}' after a property value");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail("expected ',' or ']' after an array element");
      }
    }
    if (c === '"') return string();
    NUMBER.lastIndex = i;
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      if (!NUMBER.test(text)) fail('invalid number');
      i = NUMBER.lastIndex;
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    fail(c === "'" ? 'strings need double quotes' : `unexpected character ${JSON.stringify(c)}`);
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail('unexpected text after the JSON value');
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { position: error.position, reason: error.reason };
    return undefined;
  }
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return { line, column: position - before.lastIndexOf('\n') };
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const found = locateJsonError(text);
    if (!found) throw new UsageError(`${source}: invalid JSON: ${(error as Error).message}`);
    const { line, column } = lineAndColumn(text, found.position);
    const where = text.includes('\n') ? ` (line ${line}, column ${column})` : '';
    throw new UsageError(`${source}: invalid JSON at position ${found.position}${where}: ${found.reason}`);
  }
}

/** Refuse keys that could reach a prototype, anywhere in the tree (walked without recursion). */
function refuseForbiddenKeys(root: unknown, source: string): void {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (FORBIDDEN_KEYS.has(key)) throw new UsageError(`${source}: the field name "${childPath}" is not allowed`);
      stack.push({ value: (value as JsonObject)[key], path: childPath });
    }
  }
}

async function readData(ctx: Context, data: string): Promise<JsonObject> {
  let source = '--data';
  let text: string;
  if (data === '-' || data === '@-') {
    source = `--data ${data}`;
    text = await readStdin(ctx, ctx.io.stdin, source);
  } else if (data.startsWith('@')) {
    source = `--data ${quoteInput(data).slice(1, -1)}`;
    text = await readDataFile(ctx, data.slice(1), source);
  } else {
    text = data;
  }
  if (text.trim() === '') throw new UsageError(`${source}: empty input, expected a JSON object`);
  const parsed = parseJson(text, source);
  if (!isObject(parsed)) throw new UsageError(`${source} must be a JSON object, got ${kindOf(parsed)}`);
  refuseForbiddenKeys(parsed, source);
  return parsed;
}

// ---- -f / -F --------------------------------------------------------------------------------

function parseAssignment(flag: '-f' | '-F', raw: string): { path: string[]; value: string } {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} expects key=value, got ${quoteInput(raw)}`, { hint: `e.g. ${flag} address.city=Leeds` });
  const key = raw.slice(0, eq);
  const path = key.split('.');
  if (path.some((segment) => segment.trim() === '')) throw new UsageError(`${flag} ${quoteInput(key)}: empty part in the field name`);
  const forbidden = path.find((segment) => FORBIDDEN_KEYS.has(segment));
  if (forbidden) throw new UsageError(`${flag} ${quoteInput(key)}: the field name "${forbidden}" is not allowed`);
  return { path, value: raw.slice(eq + 1) };
}

function typedValue(key: string, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const inexact = typeof parsed === 'number' && (!Number.isFinite(parsed) || (/^\s*-?\d+\s*$/.test(text) && !Number.isSafeInteger(parsed)));
  if (inexact) {
    throw new UsageError(`-F ${key}=${quoteInput(text).slice(1, -1)}: too large for an exact JSON number`, {
      hint: `send it as a string with -f ${key}=…`,
    });
  }
  refuseForbiddenKeys(parsed, `-F ${key}`);
  return parsed;
}

function setPath(record: JsonObject, path: readonly string[], value: unknown, flag: string): void {
  let node = record;
  for (let k = 0; k < path.length - 1; k++) {
    const key = path[k]!;
    const existing = Object.hasOwn(node, key) ? node[key] : undefined;
    if (existing === undefined) {
      const created: JsonObject = {};
      node[key] = created;
      node = created;
    } else if (isObject(existing)) {
      node = existing;
    } else {
      const prefix = path.slice(0, k + 1).join('.');
      throw new UsageError(`${flag} ${path.join('.')}: ${prefix} is ${kindOf(existing)}, not an object`);
    }
  }
  node[path[path.length - 1]!] = value;
}

/**
 * The record to send: --data as the base, then every -f, then every -F, each in the order given.
 * UsageError (exit 2) for unreadable or invalid input, a non-object, or a bad key=value.
 */
export async function readRecordInput(ctx: Context, options: RecordInputOptions): Promise<Record<string, unknown>> {
  const fields = options.fields ?? [];
  const typedFields = options.typedFields ?? [];
  if (options.data === undefined && fields.length === 0 && typedFields.length === 0) {
    throw new UsageError('no record given', { hint: 'pass --data JSON|@file|- or -f field=value (dotted names for nested fields)' });
  }
  const record = options.data === undefined ? {} : await readData(ctx, options.data);
  for (const raw of fields) {
    const { path, value } = parseAssignment('-f', raw);
    setPath(record, path, value, '-f');
  }
  for (const raw of typedFields) {
    const { path, value } = parseAssignment('-F', raw);
    setPath(record, path, typedValue(path.join('.'), value), '-F');
  }
  return record;
}
