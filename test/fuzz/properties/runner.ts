// How a property runs one command line: as a process (`npm run fuzz`, test/fuzz/cli.test.ts: what
// only a process shows, a crash or a hang of its own, is seen too) or in process through main()
// (the bounded run of `npm test`, test/e2e/fuzz-bounded.test.ts: milliseconds a case, no build).
export interface CommandOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export type CommandRunner = (
  argv: readonly string[],
  options: { env: Record<string, string | undefined>; cwd: string; stdin?: string | undefined },
) => Promise<CommandOutcome>;
