// commands/shared/list-records.ts alone: the one list runner (listCollection) over a fake client
// that pages as told. It hands the paging flags to paginate, streams every record in order, prints the
// integrity warnings once and after the records, counts --max-items in --query results (and stops
// reading then), and with --out drives a resumable export: pages checkpointed as they are written,
// a failed run's pages kept, a resumed run carried on to the same bytes as an uninterrupted one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiRecord, PaginateOptions, PaginateSummary } from '../../../../src/core/api-client.js';
import { UsageError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import type { GlobalOptions } from '../../../../src/core/global-options.js';
import type { Session } from '../../../../src/core/session.js';
import { listCollection } from '../../../../src/commands/shared/list-records.js';
import type { OutputFlags } from '../../../../src/core/sink-plan.js';
import type { View } from '../../../../src/output/index.js';
import { fakeContext } from '../../../helpers/fake-context.js';
import { tempDir } from '../../../helpers/temp.js';

const VIEW: View = { label: 'things', singular: 'thing', columns: ['id', 'name'] };
const PATH = '/api/things';

/** Nine records, three a page. */
const RECORDS: ApiRecord[] = Array.from({ length: 9 }, (_, i) => ({ id: `id-${i + 1}`, name: `Thing ${i + 1}`, size: i + 1 }));
const LIMIT = 3;
const PAGES = RECORDS.length / LIMIT;

interface Pager {
  api: ApiClient;
  /** The options each paginate() call got. */
  calls: PaginateOptions[];
  /** Records handed out, all calls. */
  handedOut(): number;
  /** Whether the consumer closed the generator before its end. */
  closedEarly(): boolean;
}

/**
 * A client paging RECORDS as paginate() does for its caller: after a resume's page, onPageDone after
 * each page but the last, `warnings` in the summary; `failAfterPage` throws once that page is done.
 */
function pager({ warnings = [] as string[], failAfterPage = undefined as number | undefined } = {}): Pager {
  const calls: PaginateOptions[] = [];
  let handed = 0;
  let closed = false;
  const api = {
    baseUrl: 'https://api.example.com',
    credential: undefined,
    paginate(path: string, options: PaginateOptions = {}): AsyncGenerator<ApiRecord, PaginateSummary, undefined> {
      expect(path).toBe(PATH);
      calls.push(options);
      return (async function* () {
        let finished = false;
        try {
          let count = options.resume?.count ?? 0;
          for (let page = (options.resume?.afterPage ?? 0) + 1; page <= PAGES; page++) {
            const records = RECORDS.slice((page - 1) * LIMIT, page * LIMIT);
            for (const record of records) {
              if (options.maxItems !== undefined && count >= options.maxItems) break;
              handed++;
              count++;
              yield record;
            }
            if (page < PAGES) {
              await options.onPageDone?.({ page, pages: PAGES, limit: LIMIT, total: RECORDS.length, count, ids: records.map((r) => r.id) });
            }
            if (page === failAfterPage) throw new Error(`the connection broke after page ${page}`);
          }
          finished = true;
          return { count, total: RECORDS.length, duplicatesDropped: 0, warnings };
        } finally {
          if (!finished) closed = true;
        }
      })();
    },
    close: async () => {},
  };
  return { api: api as unknown as ApiClient, calls, handedOut: () => handed, closedEarly: () => closed };
}

const SESSION: Session = {
  profileName: 'default',
  profile: undefined,
  baseUrl: 'https://api.example.com',
  origin: 'https://api.example.com:443',
  environment: undefined as unknown as Session['environment'],
  caFile: undefined,
  credential: undefined,
};

/** A list verb's context: its own output flags (none given unless `outputFlags`) are in the plan. */
function context(api: ApiClient, globals: Partial<GlobalOptions> = {}, cwd?: string, outputFlags: OutputFlags = {}) {
  return fakeContext({ api, globals: { output: 'ndjson', ...globals }, outputFlags, session: SESSION, ...(cwd ? { cwd } : {}) });
}

const ndjson = (records: readonly unknown[]): string => records.map((record) => `${JSON.stringify(record)}\n`).join('');

describe('the list runner', () => {
  it('streams every record in order and reports what it wrote', async () => {
    const { api } = pager();
    const made = context(api);
    const result = await listCollection(made.ctx, PATH, {}, VIEW);
    expect(made.stdout()).toBe(ndjson(RECORDS));
    expect(result).toEqual({ written: 9, total: 9, warnings: [] });
    expect(made.stderr()).toBe('');
  });

  it('hands the paging flags and the query to paginate', async () => {
    const { api, calls } = pager();
    const signal = new AbortController().signal;
    const made = fakeContext({
      api,
      signal,
      globals: { output: 'ndjson', pageSize: 3, maxItems: 5, concurrency: 7, allowPartial: true },
    });
    await listCollection(made.ctx, PATH, {}, VIEW);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ query: {}, pageSize: 3, maxItems: 5, concurrency: 7, allowPartial: true, page: undefined, signal });
    expect(made.stdout()).toBe(ndjson(RECORDS.slice(0, 5)));
  });

  it('prints the integrity warnings once (as warnings) and returns them', async () => {
    const warning = 'dropped 1 duplicate record(s) from /api/things (first: id-2 on page 2): the collection changed while it was read';
    const { api } = pager({ warnings: [warning] });
    const made = context(api);
    const result = await listCollection(made.ctx, PATH, {}, VIEW);
    expect(result.warnings).toEqual([warning]);
    expect(made.stderr().split(warning)).toHaveLength(2);
    expect(made.stderr()).toMatch(/^warning: /);
  });

  it('--query shapes each record, and --max-items counts its results: reading stops there', async () => {
    const { api, calls, handedOut, closedEarly } = pager();
    const made = context(api, { maxItems: 2 });
    const result = await listCollection(made.ctx, PATH, {}, VIEW, { query: '[*].{id: id}' });
    expect(result.written).toBe(2);
    expect(made.stdout()).toBe(ndjson([{ id: 'id-1' }, { id: 'id-2' }]));
    // The rest of the collection was not read: the pages were closed early.
    expect(handedOut()).toBeLessThan(RECORDS.length);
    expect(closedEarly()).toBe(true);
    expect(calls[0]!.maxItems).toBeUndefined();
  });

  it('--query that filters: --max-items counts what it keeps, not what the service sent', async () => {
    const { api, calls, handedOut } = pager();
    const made = context(api, { maxItems: 2 });
    const result = await listCollection(made.ctx, PATH, {}, VIEW, { query: '[?size > `4`].{id: id}' });
    // paginate is not told --max-items (it would stop after two records, none of which passes).
    expect(calls[0]!.maxItems).toBeUndefined();
    expect(result.written).toBe(2);
    expect(made.stdout()).toBe(ndjson([{ id: 'id-5' }, { id: 'id-6' }]));
    expect(handedOut()).toBe(6);
  });

  it('--resume or --restart without --out is a usage error before any request', async () => {
    for (const flags of [{ resume: true }, { restart: true }]) {
      const { api, calls } = pager();
      const made = context(api, {}, undefined, flags);
      const error = await listCollection(made.ctx, PATH, {}, VIEW, flags).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UsageError);
      expect(exitCodeFor(error)).toBe(2);
      expect((error as Error).message).toMatch(/^--re(sume|start) needs --out PATH/);
      expect(calls).toEqual([]);
    }
  });

  it('with --out, a failed export keeps its complete pages and --resume carries on to the same bytes', async () => {
    const dir = tempDir('appraisal-list-');
    const out = join(dir, 'things.ndjson');

    const broken = pager({ failAfterPage: 2 });
    const first = context(broken.api, { out: 'things.ndjson' }, dir);
    const error = await listCollection(first.ctx, PATH, {}, VIEW).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('the connection broke after page 2');
    expect(existsSync(out)).toBe(false);
    expect(readFileSync(join(dir, '.things.ndjson.partial'), 'utf8')).toBe(ndjson(RECORDS.slice(0, 6)));
    expect(first.stderr()).toContain('Kept the 6 records exported before the failure beside things.ndjson');

    const resumed = pager();
    const second = context(resumed.api, { out: 'things.ndjson' }, dir, { resume: true });
    const result = await listCollection(second.ctx, PATH, {}, VIEW, { resume: true });
    // paginate was told where the kept pages end, with their ids for duplicate detection.
    expect(resumed.calls[0]!.resume).toEqual({ afterPage: 2, limit: LIMIT, total: 9, count: 6, ids: RECORDS.slice(0, 6).map((r) => r.id) });
    expect(result.written).toBe(9);
    expect(readFileSync(out, 'utf8')).toBe(ndjson(RECORDS));
    expect(existsSync(join(dir, '.things.ndjson.partial'))).toBe(false);
    expect(existsSync(join(dir, '.things.ndjson.checkpoint'))).toBe(false);
  });
});
