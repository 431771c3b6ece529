// `keys lease -- appraisal NOUN VERB …` without --scope: which command of this CLI the lease runs,
// and the operations it declares it calls, read from the verb declarations (the list `spec check`
// and completion read). Only the words are read, never run.
import { basename } from 'node:path';
import type { Operation } from '../../../core/description/operations.js';
import { operationsOf, type DeclaredVerb } from '../../../core/verb.js';
import { UsageError } from '../../../core/errors.js';
import { commandWords } from '../../../core/global-options.js';

const PROGRAM_NAMES = new Set(['appraisal', 'appraisal.js']);
const NODE_NAMES = new Set(['node', 'nodejs']);

/** The words after the program when CMD runs this CLI (`appraisal …`, `node bin/appraisal.js …`); else undefined. */
export function appraisalArguments(argv: readonly string[]): readonly string[] | undefined {
  const first = argv[0] === undefined ? '' : basename(argv[0]);
  if (PROGRAM_NAMES.has(first)) return argv.slice(1);
  if (NODE_NAMES.has(first) && argv[1] !== undefined && PROGRAM_NAMES.has(basename(argv[1]))) return argv.slice(2);
  return undefined;
}

export interface TargetCommand {
  /** `props list`. */
  path: string;
  operations: readonly Operation[];
}

/** The declared verb `args` name (`props list`, `properties list`, `export`), and what it calls; a usage error when it names none. */
export function targetCommand(verbs: readonly DeclaredVerb[], args: readonly string[]): TargetCommand {
  const words = commandWords(args);
  const [first, second] = words;
  const named = (name: string, aliases: readonly string[] | undefined, word: string | undefined) =>
    word !== undefined && (name === word || (aliases ?? []).includes(word));
  const found = verbs.find(({ path, noun, verb }) =>
    path === noun.name
      ? named(noun.name, noun.aliases, first)
      : named(noun.name, noun.aliases, first) && named(verb.name, verb.aliases, second),
  );
  if (!found) {
    throw new UsageError(`--scope omitted, but \`appraisal ${words.join(' ')}\` is not a command of this CLI whose scopes can be derived`, {
      hint: 'name the command in full (e.g. `-- appraisal props list`), or give the scopes with --scope',
    });
  }
  return { path: found.path, operations: operationsOf(found.verb) };
}
