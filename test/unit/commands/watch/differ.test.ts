import { describe, expect, it } from 'vitest';
import { baselineChange, changeFor, isNewer, laterOf, versionOf } from '../../../../src/commands/watch/differ.js';

const rec = (fields: Record<string, unknown>) => ({ id: 'a', ...fields });

describe('isNewer', () => {
  it('treats the same version as no change and an earlier one as a stale copy', () => {
    expect(isNewer('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')).toBe(false);
    expect(isNewer('2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.000Z')).toBe(true);
    expect(isNewer('2025-12-31T23:59:59.999Z', '2026-01-01T00:00:00.000Z')).toBe(false);
  });

  it('compares instants, not spellings', () => {
    expect(isNewer('2026-01-01T01:00:00.000+01:00', '2026-01-01T00:00:00.500Z')).toBe(false);
    expect(isNewer('2026-01-01T01:00:01+01:00', '2026-01-01T00:00:00.500Z')).toBe(true);
  });

  it('counts a different version in the same millisecond (finer precision) as newer', () => {
    expect(isNewer('2026-01-01T00:00:00.000123Z', '2026-01-01T00:00:00.000Z')).toBe(true);
  });

  it('counts any different hash version as newer', () => {
    expect(isNewer('#abc', '#def')).toBe(true);
    expect(isNewer('#abc', '#abc')).toBe(false);
  });
});

describe('versionOf', () => {
  it('is updatedAt when present', () => {
    expect(versionOf(rec({ updatedAt: '2026-01-01T00:00:00Z' }))).toBe('2026-01-01T00:00:00Z');
  });

  it('falls back to a content hash that changes with the content', () => {
    const v1 = versionOf(rec({ name: 'x' }));
    expect(v1).toMatch(/^#[0-9a-f]{24}$/);
    expect(versionOf(rec({ name: 'x' }))).toBe(v1);
    expect(versionOf(rec({ name: 'y' }))).not.toBe(v1);
  });
});

describe('changeFor', () => {
  const at = (t: string) => rec({ updatedAt: t });
  it('reports an unknown id as what the caller says', () => {
    expect(changeFor(undefined, at('2026-01-01T00:00:00Z'), 'created')).toBe('created');
    expect(changeFor(undefined, at('2026-01-01T00:00:00Z'), undefined)).toBeUndefined();
  });
  it('reports a later version as updated, the same or an older one as nothing', () => {
    expect(changeFor('2026-01-01T00:00:00Z', at('2026-01-01T00:00:01Z'), 'created')).toBe('updated');
    expect(changeFor('2026-01-01T00:00:01Z', at('2026-01-01T00:00:01Z'), 'created')).toBeUndefined();
    expect(changeFor('2026-01-01T00:00:01Z', at('2026-01-01T00:00:00Z'), 'created')).toBeUndefined();
  });
});

describe('baselineChange', () => {
  const since = '2026-02-01T00:00:00Z';
  it('is silent by default and "created" for everything with --emit-existing', () => {
    const r = rec({ createdAt: '2020-01-01T00:00:00Z', updatedAt: '2020-01-01T00:00:00Z' });
    expect(baselineChange(r, { emitExisting: false, since: undefined })).toBeUndefined();
    expect(baselineChange(r, { emitExisting: true, since: undefined })).toBe('created');
  });

  it('with --since: created if created since, updated if only updated since, silent if older', () => {
    const policy = { emitExisting: false, since };
    expect(baselineChange(rec({ createdAt: '2026-02-01T00:00:00Z', updatedAt: '2026-02-01T00:00:00Z' }), policy)).toBe('created');
    expect(baselineChange(rec({ createdAt: '2026-01-05T00:00:00Z', updatedAt: '2026-02-03T00:00:00Z' }), policy)).toBe('updated');
    expect(baselineChange(rec({ createdAt: '2026-01-05T00:00:00Z', updatedAt: '2026-01-31T23:59:59.999Z' }), policy)).toBeUndefined();
    expect(baselineChange(rec({ updatedAt: '2026-02-03T00:00:00Z' }), policy)).toBe('updated');
    expect(baselineChange(rec({}), policy)).toBeUndefined();
  });
});

describe('laterOf', () => {
  it('picks the later timestamp and tolerates missing ones', () => {
    expect(laterOf(null, undefined)).toBeNull();
    expect(laterOf(null, '2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:00Z');
    expect(laterOf('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z')).toBe('2026-01-02T00:00:00Z');
    expect(laterOf('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')).toBe('2026-01-02T00:00:00Z');
  });
});
