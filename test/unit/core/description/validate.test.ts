import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findByOperationId, readContract } from '../../../../src/core/description/document.js';
import { answersOneRecord, canonicalSchema, envelopeForm } from '../../../../src/core/description/schema.js';
import { createValidator, jsonPath } from '../../../../src/core/description/validate.js';
import { ROOT } from '../../../helpers/env.js';

const bundled = readContract(JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')));
const op = (id: string) => findByOperationId(bundled, id)!;

describe('the description model', () => {
  it('reads the envelope form of every operation from its response schema', () => {
    expect(op('listProperties').envelope).toBe('collection');
    expect(op('getReferenceEnums').envelope).toBe('data');
    expect(op('getProperty').envelope).toBe('record');
    expect(op('deleteProperty').envelope).toBe('unknown');
    expect(envelopeForm({}, { type: 'array', items: {} })).toBe('array');
  });

  it('says which answers are one record (a bare record, {success, data} holding an object), never for a list or an unknown form', () => {
    const one = (id: string) => answersOneRecord(bundled.document, op(id).responseSchema, op(id).envelope);
    expect(one('getCurrentApiKey')).toBe(true);
    expect(one('getReferenceEnums')).toBe(true);
    expect(one('listProperties')).toBe(false);
    expect(one('deleteProperty')).toBe(false);
    const dataList = { type: 'object', properties: { success: {}, data: { type: 'array', items: {} } } };
    expect(answersOneRecord({}, dataList, envelopeForm({}, dataList))).toBe(false);
    expect(answersOneRecord({}, { type: 'array', items: {} }, 'array')).toBe(false);
  });

  it('merges path-level and operation-level parameters, resolving $refs', () => {
    expect(op('getProperty').parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id']);
    expect(
      op('listProperties')
        .parameters.filter((p) => p.in === 'query')
        .map((p) => p.name),
    ).toContain('propertyType');
  });

  it('canonical schemas ignore prose but not constraints', () => {
    const doc = { components: { schemas: { A: { type: 'string', description: 'x' } } } };
    expect(canonicalSchema(doc, { $ref: '#/components/schemas/A' })).toEqual({ type: 'string' });
    expect(canonicalSchema(doc, { type: 'string', minLength: 1 })).not.toEqual(canonicalSchema(doc, { type: 'string' }));
  });
});

describe('createValidator (ajv, loaded lazily)', () => {
  it('lists request body violations with JSON paths and keeps unknown fields legal', async () => {
    const validator = await createValidator(bundled);
    expect(validator.request(op('createClient'), { name: 'Acme', clientType: 'lender', extra: { kept: true } })).toEqual([]);
    const violations = validator.request(op('createClient'), { clientType: 'Nope', name: 5 });
    expect(violations.map((v) => v.path).sort()).toEqual(['$.clientType', '$.name']);
    expect(violations.find((v) => v.path === '$.clientType')!.message).toMatch(/must be one of/);
  });

  it('checks one record of a list against the item schema', async () => {
    const validator = await createValidator(bundled);
    expect(validator.record(op('listClients'), { id: 'x' })).not.toEqual([]);
    expect(validator.response(op('listClients'), { items: [], pagination: { page: 1, limit: 25, total: 0, pages: 0 } })).toEqual([]);
  });

  it('writes JSON paths the way people read them', () => {
    expect(jsonPath('')).toBe('$');
    expect(jsonPath('/items/3/id')).toBe('$.items[3].id');
    expect(jsonPath('/a~1b')).toBe('$["a/b"]');
  });
});
