// JSON Merge Patch (RFC 7396): PATCH bodies merge into the record; objects merge recursively, null
// removes a field, anything else replaces it.
import type { JsonObject } from '../state/records.js';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else if (isObject(value)) result[name] = mergePatch(isObject(result[name]) ? (result[name] as JsonObject) : {}, value);
    else result[name] = value;
  }
  return result;
}

/** Fields the service manages: never taken from a request body. */
export const SERVER_MANAGED_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

export function withoutServerManaged(body: JsonObject, extra: readonly string[] = []): JsonObject {
  const copy: JsonObject = { ...body };
  for (const name of [...SERVER_MANAGED_FIELDS, ...extra]) delete copy[name];
  return copy;
}
