import { describe, expect, it } from 'vitest';
import { contentMismatch, expectedContent } from '../../../../src/commands/files/transfer/content.js';
import { contentTypeFor, isMediaType } from '../../../../src/commands/files/transfer/content-type.js';

describe('expectedContent', () => {
  it('takes a well-formed size and sha256 (lower-cased) and ignores anything else', () => {
    const hex = 'AB'.repeat(32);
    expect(expectedContent({ id: 'x', size: 12, sha256: hex })).toEqual({ size: 12, sha256: hex.toLowerCase() });
    expect(expectedContent({ id: 'x', size: '12', sha256: 'md5:abc' })).toEqual({});
    expect(expectedContent({ id: 'x', size: -1 })).toEqual({});
  });
});

describe('contentMismatch', () => {
  it('compares only what both sides state', () => {
    expect(contentMismatch({ size: 1, sha256: 'a' }, {})).toBeUndefined();
    expect(contentMismatch({ size: 1 }, { size: 2 })).toBe('1 bytes instead of 2');
    expect(contentMismatch({ sha256: 'a' }, { size: 2, sha256: 'b' })).toBe('sha256 a instead of b');
    expect(contentMismatch({ size: 2, sha256: 'b' }, { size: 2, sha256: 'b' })).toBeUndefined();
  });
});

describe('contentTypeFor', () => {
  it.each([
    ['report.PDF', 'application/pdf'],
    ['photo.jpeg', 'image/jpeg'],
    ['photo.JPG', 'image/jpeg'],
    ['scan.tif', 'image/tiff'],
    ['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['comps.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['comps.csv', 'text/csv'],
    ['notes.txt', 'text/plain'],
    ['data.json', 'application/json'],
    ['bundle.zip', 'application/zip'],
    ['image.png', 'image/png'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });

  it('does not guess an unknown or missing extension', () => {
    expect(contentTypeFor('archive.7z')).toBeUndefined();
    expect(contentTypeFor('README')).toBeUndefined();
  });
});

describe('isMediaType', () => {
  it('accepts type/subtype with parameters and refuses anything that could break a header', () => {
    expect(isMediaType('application/pdf')).toBe(true);
    expect(isMediaType('text/plain; charset=utf-8')).toBe(true);
    expect(isMediaType('application/vnd.ms-excel')).toBe(true);
    expect(isMediaType('pdf')).toBe(false);
    expect(isMediaType('text/plain\r\nX-Evil: 1')).toBe(false);
    expect(isMediaType('')).toBe(false);
  });
});
