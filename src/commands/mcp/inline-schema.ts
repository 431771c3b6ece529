// An assistant gets each write tool's `data` schema whole: MCP carries one JSON Schema per tool, with
// no document around it to resolve `#/components/...` against. Local references are copied in; a
// reference that loops, or one too deep, becomes `{}` (anything), so a hostile description cannot
// make the tool list grow without bound.
const MAX_DEPTH = 12;

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** `schema` with every local $ref replaced by what it points at in `document`. */
export function inlineSchema(schema: unknown, document: unknown, seen: readonly string[] = [], depth = 0): unknown {
  if (depth > MAX_DEPTH) return {};
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(item, document, seen, depth + 1));
  if (schema === null || typeof schema !== 'object') return schema;
  const record = schema as Record<string, unknown>;
  if (typeof record.$ref === 'string') {
    const ref = record.$ref;
    const target = seen.includes(ref) ? undefined : resolvePointer(document, ref);
    if (target === undefined) return {};
    const { $ref: _ref, ...siblings } = record;
    const inlined = inlineSchema(target, document, [...seen, ref], depth + 1) as Record<string, unknown>;
    return Object.keys(siblings).length === 0 ? inlined : { ...inlined, ...(inlineSchema(siblings, document, seen, depth + 1) as object) };
  }
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, inlineSchema(value, document, seen, depth + 1)]));
}
