// Faults queued through POST /__mock/faults: the next `count` requests that match (path, optional
// method, optional query subset), after skipping `skip` matching ones, get the fault. Requests held
// by a `hold` fault wait here until released (POST /__mock/release), or the queue is cleared.
import { randomUUID } from 'node:crypto';
import type { Fault } from './fault-syntax.js';

export interface FaultRuleInput {
  path: string;
  method?: string | undefined;
  query?: Record<string, string> | undefined;
  fault: Fault;
  /** The fault as written, for listing. */
  faultText: string;
  count: number;
  skip: number;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  /** Matching requests still to skip, and to fault. */
  skipRemaining: number;
  countRemaining: number;
}

export class FaultQueue {
  private rules: FaultRule[] = [];
  private held = new Set<() => void>();

  add(input: FaultRuleInput): FaultRule {
    const rule: FaultRule = { ...input, id: randomUUID(), skipRemaining: input.skip, countRemaining: input.count };
    this.rules.push(rule);
    return rule;
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** Clears the rules and lets every held request go on: nothing waits for a test that moved on. */
  clear(): void {
    this.rules = [];
    this.release();
  }

  /** Waits until released (or `signal`, the server's shutdown, aborts). */
  hold(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.held.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.held.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Lets every held request go on; the number released. */
  release(): number {
    const waiting = [...this.held];
    for (const done of waiting) done();
    return waiting.length;
  }

  /** The fault for this request, if a rule takes it (consuming one skip or one count of each matching rule). */
  take(method: string, path: string, query: URLSearchParams): { fault: Fault; text: string } | undefined {
    let taken: FaultRule | undefined;
    for (const rule of this.rules) {
      if (!matches(rule, method, path, query)) continue;
      if (rule.skipRemaining > 0) {
        rule.skipRemaining--;
        continue;
      }
      if (!taken) {
        rule.countRemaining--;
        taken = rule;
      }
    }
    this.rules = this.rules.filter((rule) => rule.countRemaining > 0);
    return taken ? { fault: taken.fault, text: taken.faultText } : undefined;
  }
}

function matches(rule: FaultRule, method: string, path: string, query: URLSearchParams): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.path.endsWith('*') ? !path.startsWith(rule.path.slice(0, -1)) : rule.path !== path) return false;
  for (const [name, value] of Object.entries(rule.query ?? {})) {
    if (query.get(name) !== value) return false;
  }
  return true;
}
