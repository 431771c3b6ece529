// `-f key=value` (a string) and `-F key=value` (read as JSON) field assignments, dotted keys making
// nested objects. Named for the flags, not the service's `assignments` family.
import { UsageError } from '../errors.js';
import { quoteInput } from '../ids.js';
import { FORBIDDEN_KEYS, isObject, kindOf, refuseForbiddenKeys, type JsonObject } from './json-object.js';

export function parseAssignment(flag: '-f' | '-F', raw: string): { path: string[]; value: string } {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} expects key=value, got ${quoteInput(raw)}`, { hint: `e.g. ${flag} address.city=Leeds` });
  const key = raw.slice(0, eq);
  const path = key.split('.');
  if (path.some((segment) => segment.trim() === '')) throw new UsageError(`${flag} ${quoteInput(key)}: empty part in the field name`);
  const forbidden = path.find((segment) => FORBIDDEN_KEYS.has(segment));
  if (forbidden) throw new UsageError(`${flag} ${quoteInput(key)}: the field name "${forbidden}" is not allowed`);
  return { path, value: raw.slice(eq + 1) };
}

export function typedValue(key: string, text: string): unknown {
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

export function setPath(record: JsonObject, path: readonly string[], value: unknown, flag: string): void {
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
