// The part of the description one schema needs: the targets of its local `$ref`s, and of theirs in
// turn, each at its own path, so every `#/…` pointer means what it meant in the whole document.
//
// Why: ajv compiles a `$ref` into a registered document by first walking all of that document (its
// paths, every family's schemas) and compiling its root. Registering only this part made compiling a
// record's check ~45 ms of CPU cheaper (the description's 52 KB; --validate and sync pay it before
// their first page). Anything this cannot follow as a plain pointer (`#`, an anchor, an `$id`, a
// dynamic ref, a malformed escape) keeps the whole document, as before.
import { pointerKeys, pointerTarget } from './schema.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Keywords that name schemas other than by a JSON pointer from the document's root. */
const BY_NAME = new Set(['$id', '$anchor', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor']);

/** The document reduced to what `schema` reaches through local `$ref`s (the whole of it when in doubt). */
export function reachablePart(document: Json, schema: unknown): Json {
  const part: Json = {};
  const placed: string[][] = [];
  const followed = new Set<string>();
  const isPlacedWithin = (keys: readonly string[]) =>
    placed.some((at) => at.length <= keys.length && at.every((key, i) => key === keys[i]));
  const place = (keys: readonly string[], value: unknown) => {
    let holder = part;
    for (const key of keys.slice(0, -1)) {
      // Only objects of this function's own are on the way: a pointer under one already placed is skipped.
      if (!isObject(holder[key])) holder[key] = {};
      holder = holder[key] as Json;
    }
    holder[keys[keys.length - 1]!] = value;
    placed.push([...keys]);
  };
  // An explicit stack, not recursion: a deep schema from the service must not end the call stack here.
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (!isObject(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      // Resolved by ids and anchors, not pointers: only the whole document keeps what they name.
      if (BY_NAME.has(key) && typeof child === 'string') return document;
      if (key !== '$ref' || typeof child !== 'string') {
        pending.push(child);
        continue;
      }
      if (!child.startsWith('#')) continue; // another document: ajv resolves it (or not) as before
      if (!child.startsWith('#/')) return document;
      if (followed.has(child)) continue;
      followed.add(child);
      let keys: string[];
      try {
        keys = pointerKeys(child);
      } catch {
        return document;
      }
      if (isPlacedWithin(keys)) continue; // its target is inside a part already placed (and walked)
      const target = pointerTarget(document, keys);
      if (target === undefined) continue; // a broken $ref: ajv refuses it with the part as with the whole
      place(keys, target);
      pending.push(target);
    }
  }
  return part;
}
