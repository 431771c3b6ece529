// The shape every failing run must have, in process or spawned: a documented exit code, no stack
// trace, and stderr ending with exactly one `error:` line (+ an optional `hint:` line).

/** Exit codes CLI.md documents, but 130 (only after a signal) and 1 ("a bug": never acceptable). */
export const DOCUMENTED_EXIT_CODES: ReadonlySet<number> = new Set([0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 21, 22, 23]);

export interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * What is wrong with how a run ended, as a list of complaints (empty: fine). A run must exit with a
 * documented code, never print a stack trace, and when it fails, end stderr with exactly one
 * `error:` line, optionally followed by one `hint:` line.
 */
export function exitProblems(result: Outcome, options: { interrupted?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (result.code === null) problems.push(`killed by ${result.signal ?? 'a signal'} (hung?)`);
  else if (!DOCUMENTED_EXIT_CODES.has(result.code) && !(options.interrupted && result.code === 130)) {
    problems.push(`exit ${result.code} is not a documented code`);
  }
  if (/\n\s+at /.test(result.stderr) || /^\s*at .+:\d+:\d+\)?$/m.test(result.stderr)) problems.push('a stack trace on stderr');
  if (/unexpected failure|this is a bug/i.test(result.stderr)) problems.push('an "unexpected failure" report');
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  const errorLines = lines.filter((line) => line.startsWith('error:'));
  if (result.code !== 0 && result.code !== null) {
    const last = lines.at(-1) ?? '';
    const tail = last.startsWith('hint:') ? lines.slice(-2) : lines.slice(-1);
    if (errorLines.length !== 1) problems.push(`${errorLines.length} "error:" lines instead of one`);
    if (!tail[0]?.startsWith('error:')) problems.push('stderr does not end with "error: …" (+ an optional "hint: …")');
  } else if (result.code === 0 && errorLines.length > 0) {
    problems.push('"error:" printed by a run that succeeded');
  }
  return problems;
}
