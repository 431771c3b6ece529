// What a tool answers reaches an assistant and the person reviewing the conversation: service text in
// it — results and errors alike — goes through the one sanitising step (core/terminal-text.ts), so a
// record's name carries neither escape sequences into a screen nor invisible text (Unicode tags,
// zero-width or bidi characters) that the model reads and the person cannot see.
import { terminalSafe } from '../../core/terminal-text.js';

/** A copy of a JSON value with every string (keys too) made safe. */
export function sanitiseJson(value: unknown): unknown {
  if (typeof value === 'string') return terminalSafe(value);
  if (Array.isArray(value)) return value.map(sanitiseJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalSafe(key), sanitiseJson(item)]));
  }
  return value;
}

/** A tool error's text, made safe as results are. */
export function sanitiseText(text: string): string {
  return terminalSafe(text);
}
