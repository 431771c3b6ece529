// The one sanitising step for service text a person (or an assistant) is shown: stderr lines (errors,
// hints, warnings, notices, prompts), table cells, csv written to a terminal, MCP tool results and
// errors (commands/mcp/sanitise.ts). Two kinds of character are neutralised, each one becoming a
// visible U+FFFD so that the reader sees something was there:
//  - controls: ESC / OSC sequences (clear the screen, set the clipboard with OSC 52), BEL, a bare CR
//    that overwrites what the line said, C1 controls;
//  - invisible text: characters that render as nothing yet are read by a program or a model — Unicode
//    tag characters (U+E0000–E007F, "ASCII smuggling": a whole hidden sentence), zero-width and
//    direction marks (U+200B–U+200F, U+2060–U+2064, U+FEFF), bidi embeddings/overrides/isolates that
//    disguise text (U+202A–U+202E, U+2066–U+2069), the line and paragraph separators U+2028/U+2029,
//    and a run of two or more variation selectors (one may style the character before it; a run is
//    how bytes are hidden behind an emoji).
// Ordinary text is kept: é, 東京, emoji. Two emoji sequences need an invisible character and keep it:
// U+200D (zero-width joiner) between two emoji (👩‍💻, 👨‍👩‍👧), and the tag characters of the three
// subdivision flags Unicode recommends (England, Scotland, Wales); a joiner anywhere else is removed
// like the rest, so an unusual joined sequence shows as its emoji side by side.
// Data written to a file or a pipe in json/ndjson is never touched. JSON bound for a terminal
// (jsonTerminalSafe) keeps its value: JSON.stringify escapes C0 controls but writes DEL, C1 controls
// and the invisible characters as they are, so those are spelt as \uXXXX escapes instead.
import type { SecretRedactor } from './redact.js';

// C0 controls but \t and \n, DEL, C1 controls.
const CONTROL = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f';
// Zero-width, direction marks, bidi embeddings/overrides/isolates, separators, invisible operators, BOM, tags.
const INVISIBLE = '\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff\\u{e0000}-\\u{e007f}';
const VARIATION_SELECTOR = '[\\ufe00-\\ufe0f\\u{e0100}-\\u{e01ef}]';
const EMOJI = '\\p{Extended_Pictographic}[\\ufe0f\\p{Emoji_Modifier}]?';
// England, Scotland, Wales: U+1F3F4, the region's letters as tags, CANCEL TAG.
const TAG = (letters: string) => [...letters].map((letter) => `\\u{${(0xe0000 + letter.charCodeAt(0)).toString(16)}}`).join('');
const SUBDIVISION_FLAG = `\\u{1f3f4}(?:${['gbeng', 'gbsct', 'gbwls'].map(TAG).join('|')})\\u{e007f}`;

/** Kept sequences first (returned whole by the replacer), then what is neutralised. */
const UNSAFE = new RegExp(
  `(${SUBDIVISION_FLAG}|${EMOJI}\\u200d(?=\\p{Extended_Pictographic}))|${VARIATION_SELECTOR}{2,}|[${CONTROL}${INVISIBLE}]`,
  'gu',
);

export const REPLACEMENT = '\uFFFD';

const neutralise = (found: string, kept: string | undefined): string => kept ?? REPLACEMENT.repeat(Array.from(found).length);

/** Text safe to show: CRLF becomes LF, every control or invisible character U+FFFD (see the header). */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, neutralise);
}

const escaped = (found: string, kept: string | undefined): string => kept ?? [...found].map((char) => escapeUnits(char)).join('');
const escapeUnits = (char: string): string =>
  Array.from({ length: char.length }, (_, at) => `\\u${char.charCodeAt(at).toString(16).padStart(4, '0')}`).join('');

/**
 * JSON text (a document, NDJSON lines) safe to show on a terminal, with the same value: each
 * character terminalSafe would neutralise written as its \uXXXX escape (a surrogate pair for a tag
 * character). Outside strings JSON has only ASCII, so every such character is inside a string.
 */
export function jsonTerminalSafe(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** What every stderr line goes through: redacted first (a split secret is still whole), then made terminal-safe. */
export function stderrText(text: string, redactor: SecretRedactor): string {
  return terminalSafe(redactor.redact(text));
}
