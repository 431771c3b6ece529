// collection-integrity.ts alone: the checks of one read of a collection (wrong page, pagination that
// makes no sense, duplicates, totals, a resume that no longer lines up), on pages made here.
import { describe, expect, it } from 'vitest';
import type { PaginateResume } from '../../../../src/core/api-client.js';
import { CollectionIntegrity } from '../../../../src/core/http/collection-integrity.js';
import type { CollectionPage } from '../../../../src/core/http/envelope.js';
import { ContractError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';

const PATH = '/api/things';

interface PageShape {
  total?: number;
  limit?: number;
  pages?: number;
  items?: number;
}

function page(number: number, shape: PageShape = {}): CollectionPage {
  const { total = 100, limit = 25 } = shape;
  const { pages = Math.ceil(total / limit), items = limit } = shape;
  return {
    items: Array.from({ length: items }, (_, i) => ({ id: `id-${number}-${i}` })),
    pagination: { page: number, limit, total, pages },
  };
}

function thrown(action: () => void): ContractError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    expect(exitCodeFor(error)).toBe(9);
    return error as ContractError;
  }
  throw new Error('expected a ContractError');
}

describe('collection integrity: each page', () => {
  it('accepts the page asked for when its pagination makes sense', () => {
    const integrity = new CollectionIntegrity(PATH);
    expect(() => integrity.checkPage(page(1), 1, 'page 1 of /api/things')).not.toThrow();
    // An empty collection: one page, nothing on it.
    expect(() => integrity.checkPage(page(1, { total: 0, pages: 1, items: 0 }), 1, 'page 1')).not.toThrow();
  });

  it('refuses another page than the one asked for', () => {
    const error = thrown(() => new CollectionIntegrity(PATH).checkPage(page(1), 3, 'page 3 of /api/things'));
    expect(error.message).toBe('page 3 of /api/things: asked for page 3, the service answered page 1');
    expect(error.hint).toContain('does not page as published');
  });

  it.each([
    ['a limit of 0', page(1, { limit: 0, pages: 1, items: 0 }), 'limit 0 (a page holds at least one record)'],
    [
      'a page count total and limit cannot give',
      page(1, { total: 0, pages: 1e9, items: 0 }),
      '1000000000 pages for 0 records of 25 per page (expected 0)',
    ],
    ['more records than the limit', page(1, { limit: 25, items: 26 }), '26 records on a page of 25'],
    ['an empty page before the last', page(2, { total: 75, items: 0 }), 'page 2 of 3 is empty'],
  ])('refuses pagination that makes no sense: %s', (_name, answer, why) => {
    const error = thrown(() => new CollectionIntegrity(PATH).checkPage(answer, answer.pagination.page, 'the page'));
    expect(error.message).toBe(`the page: the pagination makes no sense: ${why}`);
    expect(error.hint).toContain('limit >= 1, pages = ceil(total / limit)');
  });

  it('once the first page announced the count, a later page may disagree (the totals report it)', () => {
    const integrity = new CollectionIntegrity(PATH);
    integrity.announcedPages = 4;
    expect(() => integrity.checkPage(page(2, { total: 101, pages: 7 }), 2, 'page 2')).not.toThrow();
    // An empty page past the announced count is no contradiction; before it, it is.
    expect(() => integrity.checkPage(page(4, { total: 200, items: 0 }), 4, 'page 4')).not.toThrow();
    expect(() => integrity.checkPage(page(3, { total: 200, items: 0 }), 3, 'page 3')).toThrow('page 3 of 4 is empty');
  });
});

describe('collection integrity: the whole read', () => {
  it('counts new ids and drops duplicates, naming the first', () => {
    const integrity = new CollectionIntegrity(PATH);
    expect(integrity.admit('a', 1)).toBe(true);
    expect(integrity.admit('b', 1)).toBe(true);
    expect(integrity.admit('a', 2)).toBe(false);
    expect(integrity.admit('b', 3)).toBe(false);
    expect(integrity.summary).toMatchObject({ count: 2, duplicatesDropped: 2, warnings: [] });
    integrity.noteDuplicates();
    expect(integrity.summary.warnings).toEqual([
      'dropped 2 duplicate record(s) from /api/things (first: a on page 2): the collection changed while it was read',
    ]);
  });

  it('says nothing about duplicates when there were none', () => {
    const integrity = new CollectionIntegrity(PATH);
    integrity.admit('a', 1);
    integrity.noteDuplicates();
    expect(integrity.summary.warnings).toEqual([]);
  });

  it('a complete read of exactly total records passes', () => {
    const integrity = new CollectionIntegrity(PATH);
    integrity.noteTotal(page(1, { total: 2 }));
    integrity.admit('a', 1);
    integrity.admit('b', 1);
    expect(integrity.incompleteness()).toBeUndefined();
    expect(() => integrity.checkComplete(false)).not.toThrow();
    expect(integrity.summary).toEqual({ count: 2, total: 2, duplicatesDropped: 0, warnings: [] });
  });

  it('a read short of total fails with exit 9, or with allowPartial is a warning', () => {
    const short = (): CollectionIntegrity => {
      const integrity = new CollectionIntegrity(PATH);
      integrity.noteTotal(page(1, { total: 3 }));
      integrity.admit('a', 1);
      integrity.admit('a', 2);
      integrity.admit('b', 2);
      return integrity;
    };
    const error = thrown(() => short().checkComplete(false));
    expect(error.message).toBe('incomplete read: got 2 of 3 records from /api/things (1 duplicate(s) dropped)');
    expect(error.hint).toContain('--allow-partial');
    const lenient = short();
    lenient.checkComplete(true);
    expect(lenient.summary.warnings).toEqual([
      'incomplete read: got 2 of 3 records from /api/things (1 duplicate(s) dropped) (accepted with --allow-partial)',
    ]);
  });

  it('a total that changed on the way fails the read even when the count matches the final total', () => {
    const integrity = new CollectionIntegrity(PATH);
    integrity.noteTotal(page(1, { total: 3 }));
    integrity.noteTotal(page(2, { total: 2 }));
    integrity.admit('a', 1);
    integrity.admit('b', 2);
    expect(integrity.summary.total).toBe(2);
    expect(integrity.summary.warnings).toEqual([
      'the collection changed while it was read: /api/things reported 3 records, page 2 reports 2',
    ]);
    expect(thrown(() => integrity.checkComplete(false)).message).toBe(
      'incomplete read: /api/things changed while it was read (total 3 at first, 2 on page 2), so records may have been skipped',
    );
  });

  it('a total that changed and changed back still fails', () => {
    const integrity = new CollectionIntegrity(PATH);
    for (const [number, total] of [
      [1, 2],
      [2, 3],
      [3, 2],
    ] as const)
      integrity.noteTotal(page(number, { total }));
    integrity.admit('a', 1);
    integrity.admit('b', 1);
    // The message names the total that differed, and where: "2 at first, 2 at the end" said nothing.
    expect(integrity.incompleteness()).toBe(
      'incomplete read: /api/things changed while it was read (total 2 at first, 3 on page 2, 2 at the end), so records may have been skipped',
    );
    expect(integrity.summary.warnings).toHaveLength(2);
  });
});

describe('collection integrity: a resumed read', () => {
  const resume: PaginateResume = { afterPage: 2, limit: 25, total: 100, count: 50, ids: ['kept-1', 'kept-2'] };

  it('starts from the checkpoint: its count, and its ids still count as seen', () => {
    const integrity = new CollectionIntegrity(PATH, resume);
    expect(integrity.summary.count).toBe(50);
    expect(integrity.admit('kept-2', 3)).toBe(false);
    expect(integrity.admit('new', 3)).toBe(true);
    expect(integrity.summary.count).toBe(51);
  });

  it('accepts the collection when it is paged as the checkpoint says', () => {
    expect(() => new CollectionIntegrity(PATH, resume).checkResumable(page(3))).not.toThrow();
  });

  it('refuses it when the total or the page size changed: the pages would not line up', () => {
    const bigger = thrown(() => new CollectionIntegrity(PATH, resume).checkResumable(page(3, { total: 101 })));
    expect(bigger.message).toBe(
      'cannot resume the export of /api/things: it has 101 records now, 100 when the partial export was written, so the pages after the checkpoint would not line up with those before it',
    );
    expect(bigger.hint).toContain('--restart');
    const repaged = thrown(() => new CollectionIntegrity(PATH, resume).checkResumable(page(3, { limit: 50 })));
    expect(repaged.message).toContain('the service now pages by 50, the partial export was read by 25');
  });

  it('a total that differs from the checkpoint counts as changed, even when the count then matches', () => {
    const integrity = new CollectionIntegrity(PATH, { ...resume, count: 97 });
    integrity.noteTotal(page(3, { total: 99 }));
    integrity.admit('new-1', 3);
    integrity.admit('new-2', 3);
    expect(integrity.summary.count).toBe(99);
    expect(integrity.incompleteness()).toBe(
      'incomplete read: /api/things changed while it was read (total 100 when the partial export was written, 99 on page 3), so records may have been skipped',
    );
  });

  it('a read that is not resumed checks nothing about a checkpoint', () => {
    expect(() => new CollectionIntegrity(PATH).checkResumable(page(1, { total: 7 }))).not.toThrow();
  });
});
