// Integers beyond 2^53 cannot be held exactly by a JavaScript number: JSON.parse would turn
// 9007199254740993 into …992 and every format would print the changed value with exit 0 (issue 26
// item 16). Node 20's JSON.parse gives no access to a number's source text, so the raw text is
// checked instead: a run of 16 or more digits (one regular-expression scan, the common path) sends
// the text through a tokeniser that skips strings and compares each long integer with the number it
// would become. One that would change is refused (ContractError, exit 9) rather than altered.
// Measured on a 100-record page (34 KB) on the 2-core machine: /\d{16}/ cost ~75% of JSON.parse's
// time, a loop over every character about as much; looking at every 16th character (below) ~7%.

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * Whether the text holds a run of 16 or more digits (15 always fit in a double exactly). Such a run
 * covers a position that is 15 modulo 16, so only those are looked at; around a digit there, the run
 * is measured both ways.
 */
function hasLongDigitRun(text: string): boolean {
  const length = text.length;
  for (let at = 15; at < length; at += 16) {
    if (!isDigit(text.charCodeAt(at))) continue;
    let start = at;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = at;
    while (end + 1 < length && isDigit(text.charCodeAt(end + 1))) end++;
    if (end - start + 1 >= 16) return true;
  }
  return false;
}
/** A JSON string (skipped) or a number token. Only run on text JSON.parse accepted. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** The first integer in valid JSON text that a JavaScript number would change or print changed; undefined when none. */
export function inexactIntegerIn(text: string): string | undefined {
  if (!hasLongDigitRun(text)) return undefined;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    const token = match[0];
    if (token.charCodeAt(0) === 0x22 || token.length < 16 || /[.eE]/.test(token)) continue;
    // Compared as printed, not as held: 2^60 is held exactly, yet every format would print it as
    // 1152921504606847000 (the shortest text that reads back as the same double).
    if (String(Number(token)) !== token) return token;
  }
  return undefined;
}
