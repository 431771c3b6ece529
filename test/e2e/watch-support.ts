// What the watch tests share (watch.test.ts in process; signals.test.ts and interrupt.test.ts for a
// killed or interrupted watch process): its events read back from stdout, its state file, and changes
// made straight to the mock with its admin key, "behind the watcher's back".
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { isolatedEnv } from '../helpers/env.js';
import { adminOf } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';

export interface WatchEventLine {
  type: 'created' | 'updated' | 'deleted';
  family: string;
  id: string;
  record: Record<string, unknown> | null;
  observedAt: string;
}

export const parseEvents = (stdout: string): WatchEventLine[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as WatchEventLine);

/** Each event as `type id`, sorted: what happened, in any order. */
export const kinds = (events: WatchEventLine[]) => events.map((e) => `${e.type} ${e.id}`).sort();

export function stateOf(path: string): { polls: number; seen: Record<string, string> } | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8'));
}

interface Answer {
  status: number;
  body: { id?: string; data?: { id: string }; items?: Array<{ id: string }> } | undefined;
}

/** Requests straight to the mock with its admin key: the changes a watch is to notice (the mock a
 *  getter, as a file starts it in beforeAll). */
export function changesTo(mock: () => MockServer) {
  let counter = 0;
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> =>
    (await adminOf(mock()).call(method, path, body)) as Answer;
  return {
    call,
    async createProperty(): Promise<string> {
      counter++;
      const res = await call('POST', '/api/properties', {
        name: `Watch test ${counter}`,
        propertyType: 'office',
        address: { line1: `${counter} Pier Rd`, city: 'Boston', region: 'MA', postalCode: '02110', country: 'US' },
      });
      expect(res.status).toBe(201);
      return (res.body?.data?.id ?? res.body?.id)!;
    },
    async updateProperty(id: string): Promise<void> {
      const res = await call('PATCH', `/api/properties/${id}`, { name: `Renamed ${++counter}` });
      expect(res.status).toBe(200);
    },
    async deleteProperty(id: string): Promise<void> {
      const res = await call('DELETE', `/api/properties/${id}`);
      expect(res.status).toBe(204);
    },
    async someExistingIds(n: number): Promise<string[]> {
      const res = await call('GET', `/api/properties?limit=${n}`);
      return res.body!.items!.map((r) => r.id);
    },
  };
}

/** The mock a watch test runs against (5 properties, seed 7), started for the file or the describe
 *  this is called in, with the environment that points the CLI at it and the changes to make. */
export function useWatchMock() {
  let mock: MockServer | undefined;
  let env: Record<string, string | undefined> = {};
  beforeAll(async () => {
    mock = await startMock({ records: 5, seed: 7 });
    env = isolatedEnv(mock.env);
  });
  afterAll(async () => {
    await mock?.stop();
  });
  return { env: () => env, ...changesTo(() => mock!) };
}
