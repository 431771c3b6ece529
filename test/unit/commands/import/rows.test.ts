// The pure parts of `import`: typing CSV cells by the request schema, the fields a row changes, and
// the journal read back after a crash (a line cut short is ignored; another run's journal, or one whose
// ids are not record ids, is refused; done rows the service does not hold are set apart).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shapeOf } from '../../../../src/core/description/schema.js';
import { cellValue, shapeAt } from '../../../../src/commands/import/field-shapes.js';
import { confirmDone } from '../../../../src/commands/import/family-records.js';
import { ImportJournal, readJournal, type ImportIdentity } from '../../../../src/commands/import/journal.js';
import { changedFields, sameValue } from '../../../../src/commands/import/row-pass.js';
import { RowReader } from '../../../../src/commands/import/typed-row.js';
import { tempDir } from '../../../helpers/temp.js';

const document = JSON.parse(readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const propertyShape = shapeOf(document, { $ref: '#/components/schemas/PropertyCreate' });
const ID_1 = '3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f';
const ID_3 = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('import: cells typed by the request schema', () => {
  it('keeps a ZIP or parcel number as text and makes yearBuilt and areas numbers', () => {
    expect(cellValue('02110', shapeAt(propertyShape, ['address', 'postalCode']))).toBe('02110');
    expect(cellValue('007-1', shapeAt(propertyShape, ['parcelNumber']))).toBe('007-1');
    expect(cellValue('1998', shapeAt(propertyShape, ['yearBuilt']))).toBe(1998);
    expect(cellValue('12.5', shapeAt(propertyShape, ['landArea']))).toBe(12.5);
    // Not a number: kept as text, so the schema check names the column.
    expect(cellValue('nineteen', shapeAt(propertyShape, ['yearBuilt']))).toBe('nineteen');
    expect(cellValue('x', undefined)).toBe('x');
  });

  it('says a number written with a decimal comma or thousands separators is not one, naming how to write it', () => {
    for (const text of ['1,53', '-0,5', '1.234,5', '1,234', '12,345,678'])
      expect(() => cellValue(text, shapeAt(propertyShape, ['landArea'])), text).toThrow(
        `${text} is not a number: write it with a point as the decimal mark and no thousands separator (1234.5)`,
      );
    expect(() => cellValue('1,998', shapeAt(propertyShape, ['yearBuilt']))).toThrow(/1,998 is not a number/);
    // Text fields keep their commas; anything else that is no number is left to the schema check.
    expect(cellValue('1,53', shapeAt(propertyShape, ['parcelNumber']))).toBe('1,53');
    expect(cellValue('1,a', shapeAt(propertyShape, ['landArea']))).toBe('1,a');
    expect(cellValue(',5', shapeAt(propertyShape, ['landArea']))).toBe(',5');
  });

  it('reads an array cell as JSON, and says when it is not', () => {
    const assignment = shapeOf(document, { $ref: '#/components/schemas/AssignmentCreate' });
    expect(cellValue('["a","b"]', shapeAt(assignment, ['propertyIds']))).toEqual(['a', 'b']);
    expect(() => cellValue('[a', shapeAt(assignment, ['propertyIds']))).toThrow(/is not JSON/);
  });

  it('nests dotted columns, drops read-only and `_` columns, and leaves empty cells out', () => {
    const reader = new RowReader({
      shape: propertyShape,
      readOnly: new Set(['id', 'createdAt', 'updatedAt']),
      header: ['id', 'name', 'address.city', 'yearBuilt', 'updatedAt', '_status'],
    });
    expect(reader.read({ row: 3, fileRow: 3, cells: ['ID-1', 'Harbor', 'Boston', '', '2026-01-01T00:00:00Z', 'created'] })).toEqual({
      row: 3,
      record: { name: 'Harbor', address: { city: 'Boston' } },
      id: 'ID-1',
      problems: [],
    });
  });
});

describe('import: the fields a row changes', () => {
  const existing = {
    id: 'x',
    name: 'Harbor',
    yearBuilt: 1998,
    address: { line1: '1 Pier Rd', city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
    propertyIds: ['a', 'b'],
  };

  it('is nothing when every given field is the same (nested objects compared whole)', () => {
    expect(changedFields({ name: 'Harbor', address: { city: 'Boston' }, propertyIds: ['a', 'b'] }, existing)).toEqual({});
  });

  it('sends a changed nested field with the rest of its object, and arrays whole', () => {
    expect(changedFields({ address: { city: 'Salem' }, yearBuilt: 1999, propertyIds: ['b'] }, existing)).toEqual({
      address: { ...existing.address, city: 'Salem' },
      yearBuilt: 1999,
      propertyIds: ['b'],
    });
  });

  // changedFields decides "unchanged" without building the overlay; the answer must be the one of
  // overlaying every given field and comparing the result whole, as it was first written.
  it('is what overlaying each field and comparing the result gives, for any records', () => {
    type Json = unknown;
    const isPlain = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
    const overlaid = (current: Json, wanted: Json): Json =>
      isPlain(current) && isPlain(wanted)
        ? { ...current, ...Object.fromEntries(Object.entries(wanted).map(([key, value]) => [key, overlaid(current[key], value)])) }
        : wanted;
    const reference = (record: Record<string, Json>, existing: Record<string, Json>) =>
      Object.fromEntries(
        Object.entries(record)
          .map(([field, value]) => [field, overlaid(existing[field], value)] as const)
          .filter(([field, value]) => !sameValue(value, existing[field])),
      );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom<Json>(undefined, null, 0, 1, 'a', 'b', true),
        fc.array(tie('value'), { maxLength: 2 }),
        tie('object'),
      ),
      object: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3 }),
    }));
    const record = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), value, { maxKeys: 4 });
    fc.assert(
      fc.property(record, record, (wanted, existing) => {
        expect(changedFields(wanted, existing)).toStrictEqual(reference(wanted, existing));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('import: a field named __proto__ never reaches a prototype', () => {
  it('is an own field of the typed record and of the changed fields, and Object.prototype is untouched', () => {
    const reader = new RowReader({ shape: propertyShape, readOnly: new Set(['id']), header: ['name', 'address.__proto__', 'constructor'] });
    const typed = reader.read({ row: 2, fileRow: 2, cells: ['Harbor', 'yes', 'x'] });
    const address = typed.record.address as Record<string, unknown>;
    expect(Object.getPrototypeOf(address)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(address, '__proto__')?.value).toBe('yes');
    expect(Object.getOwnPropertyDescriptor(typed.record, 'constructor')?.value).toBe('x');

    // A JSON row's nested `__proto__` (JSON.parse makes it an own key) laid over the service's record.
    const wanted = JSON.parse('{"address":{"__proto__":{"polluted":"yes"},"city":"Boston"}}') as Record<string, unknown>;
    const changed = changedFields(wanted, { address: { city: 'Boston' } });
    const sent = changed.address as Record<string, unknown>;
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(sent, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('import: the journal', () => {
  const identity: ImportIdentity = {
    family: 'props',
    input: '/data/in.csv',
    inputSize: 10,
    inputMtimeMs: 1,
    format: 'csv',
    match: 'parcelNumber',
    map: null,
    origin: 'https://example.test',
    profile: 'default',
  };

  it('reads back what was recorded, ignores a line cut short, and refuses another run', async () => {
    const path = join(tempDir('appraisal-journal-'), '.r.csv.journal');
    const journal = await ImportJournal.open(path, path, identity);
    await Promise.all([journal.record(1, 'created', ID_1), journal.record(2, 'sent'), journal.record(3, 'updated', ID_3)]);
    await journal.close();
    writeFileSync(path, '{"row":4,"status":"crea', { flag: 'a' });
    const read = await readJournal(path, path, identity);
    expect([...read!.state.done.entries()]).toEqual([
      [1, { status: 'created', id: ID_1 }],
      [3, { status: 'updated', id: ID_3 }],
    ]);
    expect([...read!.state.sent]).toEqual([2]);
    await expect(readJournal(path, path, { ...identity, match: 'id' })).rejects.toThrow(/belongs to another import \(match was/);
    await expect(readJournal(path, path, { ...identity, encoding: 'windows-1252' })).rejects.toThrow(
      /belongs to another import \(encoding was undefined, now "windows-1252"\)/,
    );
  });

  it('refuses a journal whose ids are not record ids, and moves done rows the service does not hold to gone', async () => {
    const path = join(tempDir('appraisal-journal-'), '.r.csv.journal');
    const journal = await ImportJournal.open(path, path, identity);
    await Promise.all([journal.record(1, 'created', ID_1), journal.record(2, 'created', ID_3), journal.record(3, 'updated', ID_3)]);
    await journal.close();
    const { state } = (await readJournal(path, path, identity))!;
    async function* held() {
      yield { id: ID_1 };
    }
    const checked = await confirmDone(state, held());
    expect([...checked.done.keys()]).toEqual([1]);
    expect([...checked.gone.entries()]).toEqual([
      [2, { status: 'created', id: ID_3 }],
      [3, { status: 'updated', id: ID_3 }],
    ]);

    writeFileSync(path, `${JSON.stringify({ row: 4, status: 'created', id: '../../keys' })}\n`, { flag: 'a' });
    await expect(readJournal(path, path, identity)).rejects.toThrow(/line 5: "\.\.\/\.\.\/keys" is not a record id/);
  });
});
