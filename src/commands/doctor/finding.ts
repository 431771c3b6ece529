// What each doctor check yields: one item per thing looked at, with a severity and, when something
// is wrong, the next step. `ok` and `info` items are shown on a terminal but are not findings; a
// `warning` or `error` is one (doctor then exits 20). Never a secret: only prefixes and masked URLs.

export type Severity = 'ok' | 'info' | 'warning' | 'error';

export interface Item {
  /** The check group and what it looked at: `config`, `keychain`, `tls`… */
  check: string;
  severity: Severity;
  /** What was found, one line. */
  result: string;
  /** What to do about it (findings only). */
  next?: string | undefined;
}

export function isFinding(item: Item): boolean {
  return item.severity === 'warning' || item.severity === 'error';
}

export const ok = (check: string, result: string): Item => ({ check, severity: 'ok', result });
export const info = (check: string, result: string): Item => ({ check, severity: 'info', result });
export const warning = (check: string, result: string, next: string): Item => ({ check, severity: 'warning', result, next });
export const error = (check: string, result: string, next: string): Item => ({ check, severity: 'error', result, next });

/** A URL as it may be shown: any password replaced. */
export function maskedUrl(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0];
  if (scheme !== undefined) {
    try {
      const url = new URL(value);
      if (url.password !== '') url.password = '***';
      return url.toString().replace(/\/$/, '');
    } catch {
      // Not a URL after all: masked by hand below.
    }
  }
  // Without "//" (`alice:pw@proxy:3128`) a URL parser reads `alice:` as the scheme and finds no
  // password: whatever stands before the last "@" may hold one.
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  const user = value.slice(scheme?.length ?? 0, at);
  const shown = user.includes(':') ? `${user.slice(0, user.indexOf(':'))}:***` : user;
  return `${scheme ?? ''}${shown}@${value.slice(at + 1)}`;
}

/** Run `work`, giving up after `ms` with undefined (a check never hangs doctor). */
export async function within<T>(ms: number, work: () => Promise<T>): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
