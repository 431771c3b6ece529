// What a route handler receives.
import type { IncomingMessage } from 'node:http';
import type { ApiKeyRecord } from '../state/records.js';
import type { MockState } from '../state/mock-state.js';
import type { MockResponse } from './mock-response.js';

export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly req: IncomingMessage;
  readonly requestId: string;
  readonly state: MockState;
  /** The authenticated key (undefined on public routes). */
  readonly key: ApiKeyRecord | undefined;
  /** Where uploads are streamed to. */
  readonly uploadDir: string;
  readonly maxUploadBytes: number;
}

export type Handler = (ctx: RequestContext) => MockResponse | Promise<MockResponse>;

/** A path parameter (the router guarantees it is present). */
export function param(ctx: RequestContext, name: string): string {
  const value = ctx.params[name];
  if (value === undefined) throw new Error(`route has no parameter ${name}`);
  return value;
}
