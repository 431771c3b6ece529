import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snakeCase } from '../../../../src/core/table-shape/snake-case.js';
import { columnName, heldFields, ITEMS, tableShape, unpublishedOf, valueAt } from '../../../../src/core/table-shape/shape.js';
import { ROOT } from '../../../helpers/env.js';

const document = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('snakeCase', () => {
  it.each([
    ['postalCode', 'postal_code'],
    ['propertyIds', 'property_ids'],
    ['HTTPServer', 'http_server'],
    ['line1', 'line1'],
    ['sha256', 'sha256'],
    ['already_snake', 'already_snake'],
    ['with-dash and space', 'with_dash_and_space'],
    ['---', '_'],
  ])('%s → %s', (name, expected) => expect(snakeCase(name)).toBe(expected));

  it('joins nested paths with __', () => expect(columnName(['address', 'postalCode'])).toBe('address__postal_code'));
});

describe('tableShape from the published schemas', () => {
  it('flattens nested objects and types each column from the schema', () => {
    const shape = tableShape(document, ref('Property'), 'properties');
    const byName = Object.fromEntries(shape.columns.map((column) => [column.name, column]));
    expect(shape.columns.map((column) => column.name)).toEqual([
      'id',
      'name',
      'address__line1',
      'address__line2',
      'address__city',
      'address__region',
      'address__postal_code',
      'address__country',
      'property_type',
      'parcel_number',
      'year_built',
      'gross_building_area',
      'land_area',
      'latitude',
      'longitude',
      'created_at',
      'updated_at',
    ]);
    expect(byName.id).toMatchObject({ type: 'text', required: true, path: ['id'] });
    expect(byName.address__postal_code).toMatchObject({ type: 'text', required: true, path: ['address', 'postalCode'] });
    expect(byName.address__line2).toMatchObject({ required: false });
    expect(byName.year_built).toMatchObject({ type: 'bigint', required: false });
    expect(byName.latitude).toMatchObject({ type: 'double' });
    expect(byName.updated_at).toMatchObject({ type: 'timestamptz', required: true });
    expect(shape.children).toEqual([]);
  });

  it('a nullable object (oneOf with null) is flattened and none of its columns is required', () => {
    const shape = tableShape(document, ref('Client'), 'clients');
    const city = shape.columns.find((column) => column.name === 'address__city');
    expect(city).toMatchObject({ type: 'text', required: false, path: ['address', 'city'] });
  });

  it('arrays become child tables: scalars as value, objects as their flattened fields', () => {
    const assignments = tableShape(document, ref('Assignment'), 'assignments');
    expect(assignments.children).toEqual([
      { name: 'assignments__property_ids', path: ['propertyIds'], element: { kind: 'scalar', type: 'text' } },
    ]);
    expect(assignments.columns.find((column) => column.name === 'due_date')?.type).toBe('date');
    expect(assignments.columns.find((column) => column.name === 'fee__amount')?.type).toBe('double');
    expect(assignments.columns.some((column) => column.name === 'property_ids')).toBe(false);
    const files = tableShape(document, ref('File'), 'files');
    expect(files.children).toHaveLength(1);
    expect(files.children[0]).toMatchObject({ name: 'files__attachments', path: ['attachments'] });
    expect(files.children[0]!.element).toEqual({
      kind: 'object',
      columns: [
        { name: 'target_type', path: ['targetType'], type: 'text', required: true },
        { name: 'target_id', path: ['targetId'], type: 'text', required: true },
      ],
    });
    expect(files.columns.find((column) => column.name === 'size')?.type).toBe('bigint');
  });

  it('a field with no usable schema is one JSON column; booleans and allOf are read', () => {
    const schema = {
      type: 'object',
      allOf: [{ properties: { flag: { type: 'boolean' } }, required: ['flag'] }],
      properties: {
        anything: {},
        either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        free: { type: 'object' },
        matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
        tags: { type: ['array', 'null'], items: { type: 'string', format: 'date' } },
      },
    };
    const shape = tableShape({}, schema, 't');
    expect(shape.columns).toEqual([
      { name: 'flag', path: ['flag'], type: 'boolean', required: true },
      { name: 'anything', path: ['anything'], type: 'json', required: false },
      { name: 'either', path: ['either'], type: 'json', required: false },
      { name: 'free', path: ['free'], type: 'json', required: false },
    ]);
    expect(shape.children).toEqual([
      { name: 't__matrix', path: ['matrix'], element: { kind: 'scalar', type: 'json' } },
      { name: 't__tags', path: ['tags'], element: { kind: 'scalar', type: 'date' } },
    ]);
  });

  it('a schema without properties gives no columns', () => {
    expect(tableShape({}, { type: 'object' }, 't')).toEqual({ name: 't', columns: [], children: [] });
    expect(tableShape({}, undefined, 't').columns).toEqual([]);
  });
});

describe('valueAt', () => {
  it('reads a path and gives undefined for a missing or non-object step', () => {
    const record = { address: { postalCode: '12345' }, fee: null, list: [1] };
    expect(valueAt(record, ['address', 'postalCode'])).toBe('12345');
    expect(valueAt(record, ['fee', 'amount'])).toBeUndefined();
    expect(valueAt(record, ['list', '0'])).toBeUndefined();
    expect(valueAt(record, ['nothing'])).toBeUndefined();
  });
});

describe('unpublishedOf: what no column holds', () => {
  const held = heldFields([['id'], ['address', 'city'], ['tags'], ['attachments', ITEMS, 'targetId']]);

  it('keeps every field no path holds, nested as sent; nothing when every field is held', () => {
    expect(unpublishedOf({ id: 'p1', address: { city: 'Leeds' }, tags: ['a'] }, held)).toBeUndefined();
    expect(
      unpublishedOf(
        { id: 'p1', extra: 1, address: { city: 'Leeds', floor: 3 }, attachments: [{ targetId: 'a' }, { targetId: 'b', note: 'x' }] },
        held,
      ),
    ).toEqual({ extra: 1, address: { floor: 3 }, attachments: [{}, { note: 'x' }] });
  });

  it('keeps a value where an object was published, and a field named __proto__ as a field', () => {
    expect(unpublishedOf({ id: 'p1', address: 'unknown' }, held)).toEqual({ address: 'unknown' });
    const rest = unpublishedOf(JSON.parse('{"id":"p1","__proto__":{"polluted":true}}'), held) as Record<string, unknown>;
    expect(JSON.stringify(rest)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
