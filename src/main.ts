// Builds the command tree, runs it, and turns whatever happened into an exit code. Nothing here
// calls process.exit: `main()` returns the code, so tests can run it in-process.
import { Command, CommanderError } from 'commander';
import { action, addNounExamples, examples } from './core/command.js';
import { Readable } from 'node:stream';
import type { Context, NestedStreams } from './core/context.js';
import { ChildExitError, InterruptedError, LeaseRevokeError, UsageError } from './core/errors.js';
import { createContext, type ContextHandle, type Factory, type ProcessDeps } from './core/factory.js';
import { nounCommand } from './core/verb-command.js';
import { addGlobalOptions, checkOptionsApply, GLOBAL_VALUE_OPTIONS, readGlobalOptions, takesOptions } from './core/global-options.js';
import { SecretRedactor } from './core/redact.js';
import { reportError } from './core/report-error.js';

export { InterruptedError };
import { declaredVerbs, findNoun, NOUNS } from './commands/registry.js';
import { provideDeclaredVerbs } from './core/verb-list.js';

// Commands that read every declaration (MCP, lease scopes, completion) get them through core.
provideDeclaredVerbs(declaredVerbs);
import { printHelpTopic, HELP_TOPICS } from './commands/help-topics.js';

/** The first token that is not an option or an option's value: the noun the user asked for. */
function positionalTokens(argv: readonly string[]): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(token)) i++;
      continue;
    }
    tokens.push(token);
  }
  return tokens;
}

/** `props list`: the command's names below the program. */
function commandName(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

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
  command.configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  addNounExamples(command);
  for (const sub of command.commands) applyToTree(sub, deps);
}

/** `--version --verbose` (either order, short forms too) is `appraisal version`. */
function isVerboseVersion(argv: readonly string[]): boolean {
  const words = new Set(argv);
  return argv.length === 2 && (words.has('--version') || words.has('-V')) && (words.has('--verbose') || words.has('-v'));
}

/** The deps of a command run inside this one (Context.runCommand): no terminal, no stdin, its own streams. */
function nestedDeps(deps: ProcessDeps, argv: readonly string[], streams: NestedStreams): ProcessDeps {
  return {
    ...deps,
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
  const deps: ProcessDeps = { ...processDeps, runCommand: (argv, streams) => main(nestedDeps(processDeps, argv, streams)) };
  const argv = isVerboseVersion(deps.argv) ? ['version'] : deps.argv;
  let handle: ContextHandle | undefined;
  const factory: Factory = {
    context(command: Command, operations): Context {
      if (!handle) {
        const globals = readGlobalOptions(command.optsWithGlobals(), deps.env, { stdoutIsTTY: deps.stdoutIsTTY });
        handle = createContext(deps, globals, { name: commandName(command), operations });
      }
      return handle.context;
    },
  };

  const program = new Command('appraisal')
    .description('Command line for the property appraisal API')
    .version(deps.version, '-V, --version', 'print the version')
    .helpCommand(false)
    .enablePositionalOptions(false);
  addGlobalOptions(program);
  examples(program, [
    'appraisal auth login --profile staging --base-url https://staging.example.com --environment staging',
    'appraisal props list -o csv --out properties.csv',
  ]);
  program.addHelpText(
    'after',
    "\nEach command's --help lists the options it takes. Every option and environment variable: appraisal help environment\nExit codes: appraisal help exit-codes\n",
  );

  const [first, ...rest] = positionalTokens(argv);
  const wantsHelpTopic = first === 'help';
  const nounToken = wantsHelpTopic ? rest[0] : first;
  const requested = findNoun(nounToken);
  // Completion needs the whole tree; every other command loads just its own noun.
  // `spec check` reads every command's declared operations, so it needs the whole tree too.
  // So does `keys lease -- appraisal …` without --scope: it derives the scopes from what that command calls.
  const loadAll = requested?.name === 'completion' || requested?.name === 'spec' || (requested?.name === 'keys' && rest[0] === 'lease');
  for (const noun of NOUNS) {
    if (noun === requested || loadAll) {
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
  program.hook('preAction', (_root, actionCommand) => checkOptionsApply(program, actionCommand));
  const help = program
    .command('help [topic...]')
    .description(`help on a command, or a topic: ${HELP_TOPICS.join(', ')}`)
    .action(
      action(factory, async (ctx, topic) => {
        if (topic.length === 0) {
          ctx.io.stdout.write(program.helpInformation());
          return;
        }
        if (printHelpTopic(topic[0]!, ctx)) return;
        let target: Command | undefined = program;
        for (const name of topic) {
          target = target?.commands.find((c) => c.name() === name || c.aliases().includes(name));
        }
        if (!target) throw new UsageError(`no help topic or command "${topic.join(' ')}"`, { hint: 'run `appraisal --help`' });
        ctx.io.stdout.write(target.helpInformation());
      }),
    );
  takesOptions(help);
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
      return reportError(
        new UsageError(error.message.replace(/^error:\s*/, ''), { hint: 'run the command with --help for usage' }),
        deps.stderr,
        handle?.context.io.redactor ?? new SecretRedactor(),
        false,
      );
    }
    // After Ctrl-C whatever failed failed because of it; keep the command's own account if it gave
    // one (`keys lease`: the child's own end, or the lease it could not revoke).
    const ownAccount = error instanceof InterruptedError || error instanceof ChildExitError || error instanceof LeaseRevokeError;
    const interrupted = deps.signal.aborted && !ownAccount ? new InterruptedError() : error;
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
