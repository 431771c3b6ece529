// Builds the command tree, runs it, and turns whatever happened into an exit code. Nothing here
// calls process.exit: `main()` returns the code, so tests can run it in-process.
import { Command, CommanderError } from 'commander';
import { Readable } from 'node:stream';
import type { Context, NestedStreams } from './core/context.js';
import { ChildExitError, InterruptedError, LeaseRevokeError, NetworkError, UsageError } from './core/errors.js';
import { createContext, type ContextHandle, type Factory, type ProcessDeps } from './core/factory.js';
import { nounCommand, verbCommand } from './core/verb-command.js';
import { checkOptionsApply, commandPath, commandWords, readGlobalOptions } from './core/global-options.js';
import { SecretRedactor } from './core/redact.js';
import { reportError } from './core/report-error.js';

export { InterruptedError };
import { findNoun, loadAllNouns, NOUNS } from './commands/registry.js';
import { helpVerb, rootCommand } from './commands/root.js';

function applyToTree(command: Command, deps: ProcessDeps): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => deps.stdout.write(text),
    writeErr: (text) => deps.stderr.write(text),
    // Errors are printed once, by reportError.
    outputError: () => {},
    // The width of the streams main() was given (not process.stdout's): help rendered at build time
    // for dist/help.json comes out exactly as a run with stdout not a terminal prints it.
    getOutHelpWidth: () => (deps.stdoutIsTTY ? (deps.stdout as { columns?: number }).columns : undefined) ?? 80,
    getErrHelpWidth: () => (deps.stderrIsTTY ? (deps.stderr as { columns?: number }).columns : undefined) ?? 80,
  });
  command.showSuggestionAfterError(true);
  // The general options show in the root's help; a command's help points at `help options` for them.
  command.configureHelp({ sortSubcommands: false });
  for (const sub of command.commands) applyToTree(sub, deps);
}

/**
 * commander suggests a flag only among those a help lists, and a verb's help folds the shared options
 * it takes into one line (`appraisal help options`): `auth status --profle x` got no "Did you mean
 * --profile?" while `--max-item` got one. Asked again of commander with the command's hidden options
 * listed: its own rule for what is similar, over every option the command takes.
 */
function withHiddenSuggestion(message: string, program: Command, argv: readonly string[]): string {
  const flag = /^error: unknown option '(--[^']*)'$/.exec(message)?.[1];
  if (flag === undefined) return message;
  let command = program;
  for (const word of commandWords(argv)) {
    const sub = command.commands.find((one) => one.name() === word || one.aliases().includes(word));
    if (!sub) break;
    command = sub;
  }
  const probe = new Command().exitOverride().showSuggestionAfterError(true).helpOption(false);
  probe.configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const option of command.options) if (option.hidden && option.long) probe.option(option.long);
  try {
    probe.parse([flag], { from: 'user' });
  } catch (error) {
    const suggestion = error instanceof CommanderError ? /\(Did you mean [^)]*\)$/.exec(error.message)?.[0] : undefined;
    if (suggestion) return `${message} ${suggestion}`;
  }
  return message;
}

/** `--version --verbose` (either order, short forms too) is `appraisal version`. */
function isVerboseVersion(argv: readonly string[]): boolean {
  const words = new Set(argv);
  return argv.length === 2 && (words.has('--version') || words.has('-V')) && (words.has('--verbose') || words.has('-v'));
}

/**
 * `appraisal auth help login` is `appraisal help auth login`: one help, and one way for it to fail.
 * commander's own help command under a noun showed the noun's help and exit 0 for a verb that is
 * not there (`auth help logn`), where `help auth logn` says so with exit 2.
 */
function helpFirst(argv: readonly string[]): readonly string[] {
  const [noun, second] = commandWords(argv);
  if (second !== 'help' || noun === undefined || findNoun(noun) === undefined) return argv;
  const at = argv.indexOf('help', argv.indexOf(noun) + 1);
  return ['help', ...argv.slice(0, at), ...argv.slice(at + 1)];
}

/** Every dep but stdin, whose getter is not read (a nested command gets no stdin). */
function withoutStdin(deps: ProcessDeps): Omit<ProcessDeps, 'stdin'> {
  const descriptors = Object.getOwnPropertyDescriptors(deps) as Partial<Record<keyof ProcessDeps, PropertyDescriptor>>;
  delete descriptors.stdin;
  return Object.defineProperties({}, descriptors) as Omit<ProcessDeps, 'stdin'>;
}

/** The deps of a command run inside this one (Context.runCommand): no terminal, no stdin, its own streams. */
function nestedDeps(deps: ProcessDeps, argv: readonly string[], streams: NestedStreams): ProcessDeps {
  return {
    ...withoutStdin(deps),
    argv: [...argv],
    env: streams.env ?? deps.env,
    stdin: Readable.from([]),
    stdout: streams.stdout,
    stderr: streams.stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal: streams.signal,
  };
}

export async function main(processDeps: ProcessDeps): Promise<number> {
  // Copied with its property descriptors, not spread: the entry's stdin is a getter, and reading it
  // would create process.stdin for every command (start-up reads no stdin it does not need).
  const deps = Object.defineProperties({}, Object.getOwnPropertyDescriptors(processDeps)) as ProcessDeps;
  deps.runCommand = (argv, streams) => main(nestedDeps(processDeps, argv, streams));
  // Commands that read every declaration (spec check, completion, MCP, lease scopes) get them from the context.
  deps.declarations = loadAllNouns;
  const argv = isVerboseVersion(deps.argv) ? ['version'] : helpFirst(deps.argv);
  let handle: ContextHandle | undefined;
  const factory: Factory = {
    context(command: Command, operations, outputFlags): Context {
      if (!handle) {
        const globals = readGlobalOptions(command.optsWithGlobals(), deps.env);
        handle = createContext(deps, globals, { name: commandPath(command), operations, outputFlags });
      }
      return handle.context;
    },
  };

  const program = rootCommand(deps.version);

  const [first, ...rest] = commandWords(argv);
  const wantsHelpTopic = first === 'help';
  const nounToken = wantsHelpTopic ? rest[0] : first;
  const requested = findNoun(nounToken);
  // Every command loads just its own noun (completion, `spec check` and `keys lease` read the
  // declarations themselves, through the factory).
  for (const noun of NOUNS) {
    if (noun === requested) {
      const module = await noun.load();
      program.addCommand(nounCommand(noun, module.default, factory));
    } else {
      program
        .command(noun.name)
        .aliases(noun.aliases ?? [])
        .description(noun.summary);
    }
  }
  // The root parses every global option wherever it stands; the command run says which it takes.
  // The command run, as typed (`props list`): a failure to reach the service names it.
  let ran: string | undefined;
  program.hook('preAction', (_root, actionCommand) => {
    ran = commandPath(actionCommand);
    checkOptionsApply(program, actionCommand);
  });
  program.addCommand(
    verbCommand(
      helpVerb(() => program),
      factory,
    ),
  );
  applyToTree(program, deps);

  try {
    if (argv.length === 0) {
      deps.stdout.write(program.helpInformation());
      return 0;
    }
    await program.parseAsync(argv, { from: 'user' });
    if (deps.signal.aborted && !handle?.interruptIsNormalEnd) throw new InterruptedError();
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      // A noun with subcommands but none given: commander shows help and "fails" with code 1.
      if (error.code === 'commander.help') return 0;
      const message = error.code === 'commander.unknownOption' ? withHiddenSuggestion(error.message, program, argv) : error.message;
      return reportError(
        new UsageError(message.replace(/^error:\s*/, ''), { hint: 'run the command with --help for usage' }),
        deps.stderr,
        handle?.context.io.redactor ?? new SecretRedactor(),
        false,
      );
    }
    // After Ctrl-C whatever failed failed because of it; keep the command's own account if it gave
    // one (`keys lease`: the child's own end, or the lease it could not revoke).
    const ownAccount = error instanceof InterruptedError || error instanceof ChildExitError || error instanceof LeaseRevokeError;
    const interrupted = deps.signal.aborted && !ownAccount ? new InterruptedError() : withCommand(error, ran);
    return reportError(
      interrupted,
      deps.stderr,
      handle?.context.io.redactor ?? new SecretRedactor(),
      handle?.context.globals.verbose ?? false,
    );
  } finally {
    await handle?.dispose();
  }
}

/**
 * A service that cannot be reached (refused, unresolvable, timed out, TLS) is reported with the
 * command the user ran, not only the request it was making: `\`appraisal props list\`: GET
 * /api/properties?page=1: cannot connect to …` (issue 25 §5).
 */
function withCommand(error: unknown, ran: string | undefined): unknown {
  if (!(error instanceof NetworkError) || ran === undefined || ran === '') return error;
  // Only a request's own failure (`GET /path: …`): a command that tells its failure itself (smoke) says it its way.
  if (!/^(GET|HEAD|POST|PUT|PATCH|DELETE) /.test(error.message)) return error;
  return new NetworkError(`\`appraisal ${ran}\`: ${error.message}`, { hint: error.hint, cause: error });
}
