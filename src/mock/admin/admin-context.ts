// What the /__mock/ admin routes work with: the state plus the mock's own machinery.
import type { IncomingMessage } from 'node:http';
import type { FaultQueue } from '../faults/fault-queue.js';
import type { MockResponse } from '../http/mock-response.js';
import type { TokenBucketLimiter } from '../rate-limit.js';
import type { RequestLog } from '../request-log.js';
import type { DescriptionRouting } from '../description/routing.js';
import type { MockState } from '../state/mock-state.js';

export interface AdminContext {
  readonly req: IncomingMessage;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly state: MockState;
  readonly faults: FaultQueue;
  readonly log: RequestLog;
  readonly limiter: TokenBucketLimiter | undefined;
  /** The description variant in use (POST /__mock/description switches it). */
  readonly description: { current: DescriptionRouting };
}

export type AdminHandler = (ctx: AdminContext) => MockResponse | Promise<MockResponse>;

export interface AdminRoute {
  method: string;
  path: string;
  handler: AdminHandler;
}
