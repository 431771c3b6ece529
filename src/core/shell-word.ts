// One word for a POSIX shell, read back unchanged: as it is when it holds only safe characters, else
// single-quoted. For the lines the CLI prints for a person to run or eval (the mock's variables, the
// `auth login` a hint repeats).

/** `value` as a shell word (single-quoted when needed). */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
