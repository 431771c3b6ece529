// The one place that prints errors: `error: <one line>`, then an optional `hint:` line. Never a
// stack trace (except an unexpected failure under --verbose), always redacted and terminal-safe.
import { AppError } from './errors.js';
import { EXIT_UNEXPECTED, exitCodeFor } from './exit-codes.js';
import type { SecretRedactor } from './redact.js';
import { stderrText } from './terminal-text.js';

export interface ErrorSink {
  write(text: string): unknown;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Text for anything thrown: an object without a usable toString (null prototype…) must not make this throw. */
function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    try {
      return JSON.stringify(error) ?? Object.prototype.toString.call(error);
    } catch {
      return Object.prototype.toString.call(error);
    }
  }
}

export function reportError(error: unknown, sink: ErrorSink, redactor: SecretRedactor, verbose: boolean): number {
  const code = exitCodeFor(error);
  const lines: string[] = [];
  if (error instanceof AppError) {
    lines.push(`error: ${oneLine(error.message)}`);
    if (error.hint) lines.push(`hint: ${oneLine(error.hint)}`);
  } else {
    const message = describeThrown(error);
    lines.push(`error: unexpected failure: ${oneLine(message) || 'unknown error'}`);
    lines.push('hint: this is a bug in appraisal-cli; please report it with the command you ran and the output of --verbose');
    if (verbose && error instanceof Error && error.stack) lines.push(error.stack);
  }
  sink.write(stderrText(`${lines.join('\n')}\n`, redactor));
  return code === 0 ? EXIT_UNEXPECTED : code;
}
