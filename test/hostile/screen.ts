// What a terminal shows, as text the checks can read: a pty turns \n into \r\n (and a csv's own
// \r\n into \r\r\n), so line ends go back to \n; a bare CR the CLI wrote stays visible to the checks.
// Apart from terminal.ts so an in-process run on a pretend terminal (run({ tty: true })) reads its
// output the same way without importing what starts the build.

/** What a terminal shows, with CR LF line ends back to LF (a lone CR stays). */
export function screenText(raw: string): string {
  return raw.replace(/\r+\n/g, '\n');
}
