import { describe, expect, it } from 'vitest';
import { cellText, flattenRecord, getField, parseFieldPath, pickFields } from '../../../src/output/fields.js';

const record = {
  id: 'p1',
  address: { city: 'Leeds', street: 'Main St', geo: { lat: 53.8, lng: -1.5 } },
  photos: [{ url: 'a.jpg' }, { url: 'b.jpg' }],
  notes: null,
};

describe('getField', () => {
  it('follows dotted paths and array indexes', () => {
    expect(getField(record, parseFieldPath('address.city'))).toBe('Leeds');
    expect(getField(record, parseFieldPath('address.geo.lat'))).toBe(53.8);
    expect(getField(record, parseFieldPath('photos.1.url'))).toBe('b.jpg');
  });

  it('is undefined for missing steps and never reaches the prototype', () => {
    expect(getField(record, parseFieldPath('address.zip'))).toBeUndefined();
    expect(getField(record, parseFieldPath('id.length'))).toBeUndefined();
    expect(getField(record, parseFieldPath('notes.x'))).toBeUndefined();
    expect(getField(record, parseFieldPath('constructor'))).toBeUndefined();
    expect(getField(record, parseFieldPath('address.__proto__'))).toBeUndefined();
  });
});

describe('pickFields', () => {
  it('keeps only the paths, nested as in the source', () => {
    expect(pickFields(record, [['id'], ['address', 'city']])).toEqual({ id: 'p1', address: { city: 'Leeds' } });
  });

  it('a whole object wins over a deeper path, in either order, without touching the source', () => {
    const a = pickFields(record, [['address'], ['address', 'city']]);
    const b = pickFields(record, [['address', 'city'], ['address']]);
    expect(a).toEqual({ address: record.address });
    expect(b).toEqual({ address: record.address });
    expect(record.address).toEqual({ city: 'Leeds', street: 'Main St', geo: { lat: 53.8, lng: -1.5 } });
  });

  it('leaves missing paths out and keeps null', () => {
    expect(pickFields(record, [['missing'], ['address', 'zip'], ['notes']])).toEqual({ notes: null });
  });

  it('keeps array positions', () => {
    expect(JSON.stringify(pickFields(record, [['photos', '1', 'url']]))).toBe('{"photos":[null,{"url":"b.jpg"}]}');
  });
});

describe('flattenRecord and cellText', () => {
  it('flattens nested objects to dotted keys, arrays stay whole', () => {
    expect(flattenRecord({ id: 1, a: { b: { c: 2 }, d: {} }, list: [1, 2] })).toEqual([
      ['id', 1],
      ['a.b.c', 2],
      ['a.d', {}],
      ['list', [1, 2]],
    ]);
  });

  it('renders cells', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText(0)).toBe('0');
    expect(cellText(false)).toBe('false');
    expect(cellText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
  });
});
