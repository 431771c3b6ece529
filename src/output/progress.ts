// Progress on stderr, only when a person is watching it (stderr is a terminal and not --quiet):
// "Fetched 3,400 / 120,000 properties", "Uploading 12.3 MiB / 50.0 MiB (24%)". ora is loaded on
// first use; until it has loaded, updates just remember the latest text. Text changes are throttled
// (ora redraws on its own timer), and nothing is ever written to stdout.
import type { Context } from '../core/context.js';

export interface Progress {
  update(fetched: number, total: number | undefined): void;
  bytes(sent: number, total: number): void;
  /** Any other line of progress (an import's rows, rate and ETA). */
  text(line: string, final?: boolean): void;
  succeed(text?: string): void;
  stop(): void;
}

/** 120000 → "120,000". Not Intl.NumberFormat: building one loads ICU data (~20 ms of start-up). */
export function formatCount(n: number): string {
  const [whole = '', fraction] = String(n).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

export function fetchedText(fetched: number, total: number | undefined, label: string): string {
  return total === undefined
    ? `Fetched ${formatCount(fetched)} ${label}`
    : `Fetched ${formatCount(fetched)} / ${formatCount(total)} ${label}`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function bytesText(sent: number, total: number): string {
  const percent = total > 0 ? Math.floor((sent / total) * 100) : 100;
  return `Uploading ${formatBytes(sent)} / ${formatBytes(total)} (${percent}%)`;
}

const NO_PROGRESS: Progress = { update() {}, bytes() {}, text() {}, succeed() {}, stop() {} };

/** At most this often does the text change (10 updates a second). */
export const THROTTLE_MS = 100;

interface Spinner {
  text: string;
  start(): unknown;
  stop(): unknown;
  succeed(text?: string): unknown;
}

export function createProgress(ctx: Context, label: string): Progress {
  if (!ctx.io.showProgress) return NO_PROGRESS;
  let spinner: Spinner | undefined;
  let text = '';
  /** Set once: undefined while running, else how it ended. */
  let ending: { succeed: boolean; text: string } | undefined;
  let lastChange = 0;
  let trailing: ReturnType<typeof setTimeout> | undefined;

  void import('ora')
    .then(({ default: ora }) => {
      const created: Spinner = ora({ text, stream: ctx.io.stderr, isEnabled: true, discardStdin: false });
      if (ending === undefined) {
        spinner = created;
        created.start();
      } else if (ending.succeed) {
        // Finished before ora loaded: still leave the success line.
        created.succeed(ending.text);
      }
    })
    // No spinner is no reason to fail a command.
    .catch(() => undefined);

  const apply = () => {
    trailing = undefined;
    lastChange = performance.now();
    if (spinner) spinner.text = text;
  };

  const show = (next: string, force: boolean) => {
    if (ending) return;
    text = next;
    const wait = THROTTLE_MS - (performance.now() - lastChange);
    if (force || wait <= 0) {
      if (trailing) clearTimeout(trailing);
      apply();
    } else {
      // The latest text still shows once the throttle window has passed.
      trailing ??= setTimeout(apply, wait);
      trailing.unref?.();
    }
  };

  const finish = (succeed: boolean, finalText: string | undefined) => {
    if (ending) return;
    ending = { succeed, text: finalText ?? text };
    if (trailing) clearTimeout(trailing);
    trailing = undefined;
    if (succeed) spinner?.succeed(ending.text);
    else spinner?.stop();
  };

  return {
    update(fetched, total) {
      show(fetchedText(fetched, total, label), total !== undefined && fetched >= total);
    },
    bytes(sent, total) {
      show(bytesText(sent, total), sent >= total);
    },
    text(line, final = false) {
      show(line, final);
    },
    succeed: (finalText) => finish(true, finalText),
    stop: () => finish(false, undefined),
  };
}
