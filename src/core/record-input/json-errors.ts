// JSON errors that say where: position, and line and column for multi-line input.
import { UsageError } from '../errors.js';

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

export function parseJsonInput(text: string, source: string): unknown {
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
