// The one-line status a person watching the terminal sees on stderr, rewritten in place:
// "watching properties · last poll 12:00:01 · next 12:01:01 · 3 events".
import type { Writable } from 'node:stream';
import { formatCount } from '../../output/index.js';

export interface WatchStatus {
  label: string;
  lastPollAt: number | undefined;
  nextPollAt: number | undefined;
  events: number;
  /** Set while backing off after a failed poll. */
  retrying: boolean;
}

const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 8);

export function formatStatus(status: WatchStatus): string {
  const parts = [`watching ${status.label}`];
  if (status.lastPollAt !== undefined) parts.push(`last poll ${clock(status.lastPollAt)}`);
  if (status.nextPollAt !== undefined) parts.push(`${status.retrying ? 'retry' : 'next'} ${clock(status.nextPollAt)}`);
  parts.push(`${formatCount(status.events)} event${status.events === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

export interface StatusLine {
  show(status: WatchStatus): void;
  /** Erase the line (before another stderr message, and at the end). */
  clear(): void;
}

export function statusLine(stderr: Writable, enabled: boolean): StatusLine {
  let shown = false;
  return {
    show(status) {
      if (!enabled) return;
      stderr.write(`\r\x1b[2K${formatStatus(status)}`);
      shown = true;
    },
    clear() {
      if (!shown) return;
      stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}
