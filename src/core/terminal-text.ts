// The one sanitising step for text that reaches a person's terminal: stderr lines (errors, hints,
// warnings, notices, prompts), table cells, csv written to a terminal. Service text can carry ESC /
// OSC sequences (clear the screen, set the clipboard with OSC 52), BEL, a bare CR that overwrites
// what the line said, C1 controls, and bidi overrides that disguise text: each becomes a visible
// U+FFFD. Data written to a file or a pipe in json/ndjson is never touched (JSON escapes it).
import type { SecretRedactor } from './redact.js';

// C0 controls but \t and \n, DEL, C1 controls, bidi embeddings/overrides/isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export const REPLACEMENT = '\uFFFD';

/** Text safe to print on a terminal: CRLF becomes LF, every other control character U+FFFD. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, REPLACEMENT);
}

/** True when `text` holds something terminalSafe would replace. */
export function hasUnsafeControl(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/** What every stderr line goes through: redacted first (a split secret is still whole), then made terminal-safe. */
export function stderrText(text: string, redactor: SecretRedactor): string {
  return terminalSafe(redactor.redact(text));
}
