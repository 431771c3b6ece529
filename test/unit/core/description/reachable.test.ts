import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readContract } from '../../../../src/core/description/document.js';
import { reachablePart } from '../../../../src/core/description/reachable.js';
import { recordSchemaOf, resolveRef } from '../../../../src/core/description/schema.js';
import { createValidator, jsonPath, type Violation } from '../../../../src/core/description/validate.js';
import { ROOT } from '../../../helpers/env.js';

const raw = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as Record<string, unknown>;
const bundled = readContract(raw);

describe('reachablePart: the part of the description a schema needs', () => {
  const A = { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } };
  const B = { type: 'array', items: { $ref: '#/components/schemas/A' } };
  const C = { type: 'string' };
  const doc = { paths: { '/x': { get: {} } }, components: { schemas: { A, B, C, 'D/E': { type: 'integer' } } } };

  it('keeps the targets of local refs, theirs in turn, at their own paths, and nothing else', () => {
    const part = reachablePart(doc, { $ref: '#/components/schemas/A' });
    expect(part).toEqual({ components: { schemas: { A, B } } });
    // A cycle (A → B → A) ends; the targets are the document's own objects, not copies.
    expect((part.components as { schemas: Record<string, unknown> }).schemas.A).toBe(A);
  });

  it('follows escaped pointers and pointers into a part already kept', () => {
    expect(reachablePart(doc, { $ref: '#/components/schemas/D~1E' })).toEqual({ components: { schemas: { 'D/E': { type: 'integer' } } } });
    const deepFirst = reachablePart(doc, {
      allOf: [{ $ref: '#/components/schemas/A/properties/b' }, { $ref: '#/components/schemas/A' }],
    });
    expect(deepFirst).toEqual({ components: { schemas: { A, B } } });
    expect(reachablePart(doc, { allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/A/properties/b' }] })).toEqual(
      deepFirst,
    );
  });

  it('keeps the whole document where a ref is not a plain pointer', () => {
    expect(reachablePart(doc, { $ref: '#' })).toBe(doc);
    expect(reachablePart(doc, { $ref: '#someAnchor' })).toBe(doc);
    expect(reachablePart(doc, { $ref: '#/components/%E0%A4%A' })).toBe(doc);
    // Ids, anchors and dynamic refs name schemas other than by a pointer.
    expect(reachablePart(doc, { $dynamicRef: '#node' })).toBe(doc);
    expect(reachablePart(doc, { allOf: [{ $ref: '#/components/schemas/C' }, { $id: 'urn:x', type: 'object' }] })).toBe(doc);
    const anchored = { components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $anchor: 'b', type: 'string' } } } };
    expect(reachablePart(anchored, { $ref: '#/components/schemas/A' })).toBe(anchored);
    // A property called `$id` or `id` is a schema, not a name.
    expect(reachablePart(doc, { properties: { $id: { type: 'string' }, id: { type: 'string' } } })).toEqual({});
  });

  it('leaves out a broken ref and a ref to another document (ajv refuses or fetches them as before)', () => {
    expect(reachablePart(doc, { anyOf: [{ $ref: '#/components/schemas/Nope' }, { $ref: 'other.json#/x' }] })).toEqual({});
  });
});

// The validator as it was before the part: the whole description registered once, every local ref into it.
function wholeDocumentChecker(): (schema: unknown, value: unknown) => Violation[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
  formats.default(ajv);
  const id = 'urn:test:whole';
  const anchor = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(anchor);
    if (typeof schema !== 'object' || schema === null) return schema;
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${id}${value}` : anchor(value),
      ]),
    );
  };
  ajv.addSchema({ ...(anchor(raw) as object), $id: id }, id);
  const checks = new Map<unknown, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    if (!checks.has(schema)) checks.set(schema, ajv.compile(anchor(schema) as object));
    const check = checks.get(schema)!;
    if (check(value)) return [];
    // The paths the validator reports: a missing or forbidden field is named by its own path.
    return (check.errors ?? []).map((error) => {
      const field = error.params.missingProperty ?? error.params.additionalProperty;
      return { path: jsonPath(typeof field === 'string' ? `${error.instancePath}/${field}` : error.instancePath), message: error.keyword };
    });
  };
}

const propertyNames = (schema: unknown): string[] => {
  const resolved = resolveRef(raw, schema) as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(resolved?.properties ?? {});
};

describe('a check compiled against the part finds what one compiled against the whole description finds', () => {
  const lists = bundled.operations.filter((operation) => operation.envelope === 'collection');
  const whole = wholeDocumentChecker();
  // Values of the kinds the description's fields take, valid and not: dates, ids, numbers out of range, nulls, nested objects.
  const cell = fc.oneof(
    fc.constantFrom('2025-01-02T03:04:05Z', '2025-02-30T00:00:00Z', '2025-01-02', 'not a date', '', '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'),
    fc.constantFrom('single_family', 'lender', 'open', 'USD', 1599, 1e9, -1, 0, 2.5, null, true),
    fc.jsonValue({ maxDepth: 2 }),
    fc.record(
      { line1: fc.string(), city: fc.string(), region: fc.string(), postalCode: fc.string(), country: fc.string(), amount: fc.integer() },
      { requiredKeys: [] },
    ),
  );

  it('for every list of the bundled description, on generated records', async () => {
    const validator = await createValidator(bundled);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), fc.array(fc.tuple(fc.nat(), cell), { maxLength: 12 }), async (operation, cells) => {
        const schema = recordSchemaOf(raw, operation.responseSchema, operation.envelope);
        const names = propertyNames(schema);
        const record = Object.fromEntries(cells.map(([index, value]) => [names[index % names.length] ?? 'extra', value]));
        const mine = validator.record(operation, record).map((violation) => violation.path);
        const theirs = whole(schema, record).map((violation) => violation.path);
        expect(mine.sort()).toEqual(theirs.sort());
      }),
      { numRuns: 300 },
    );
    expect(lists.length).toBeGreaterThanOrEqual(5);
  });
});
