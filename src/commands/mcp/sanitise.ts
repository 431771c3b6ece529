// Service text in tool results is made safe as for a terminal (core/terminal-text.ts): an assistant
// shows it to a person, and a record's name must not carry escape sequences into their screen.
import { terminalSafe } from '../../core/terminal-text.js';

/** A copy of a JSON value with every string (keys too) terminal-safe. */
export function sanitiseJson(value: unknown): unknown {
  if (typeof value === 'string') return terminalSafe(value);
  if (Array.isArray(value)) return value.map(sanitiseJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [terminalSafe(key), sanitiseJson(item)]));
  }
  return value;
}
