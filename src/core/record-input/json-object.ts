// What every source of a record shares: it must be a JSON object, and no key may reach a prototype.
import { UsageError } from '../errors.js';

/** Keys that could reach an object's prototype when merged; never field names of a record. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Refuse keys that could reach a prototype, anywhere in the tree (walked without recursion). */
export function refuseForbiddenKeys(root: unknown, source: string): void {
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
