// The fish completion script: `complete -c appraisal` lines, conditioned on the command path, which a
// helper computes from the words typed so far (walking aliases and skipping flag values).
import type { ScriptInfo } from './bash.js';
import { inheritedFlags, walk, type CompletionFlag, type CompletionNode, type ValueSource } from './tree.js';

/** A fish word in single quotes. */
export function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function valueArgs(value: ValueSource, program: string): string {
  switch (value.kind) {
    case 'none':
      return '';
    case 'free':
      return ' -x';
    case 'files':
      return ' -r -F';
    case 'profiles':
      return ` -x -a ${fq(`(${program} completion __profiles 2>/dev/null)`)}`;
    case 'words':
      return ` -x -a ${fq(value.words.join(' '))}`;
  }
}

function flagLine(program: string, condition: string | undefined, flag: CompletionFlag): string {
  const parts = [`complete -c ${program}`];
  if (condition !== undefined) parts.push(`-n ${fq(condition)}`);
  if (flag.short) parts.push(`-s ${flag.short.replace(/^-/, '')}`);
  if (flag.long) parts.push(`-l ${flag.long.replace(/^--/, '')}`);
  return `${parts.join(' ')}${valueArgs(flag.value, program)}${flag.description ? ` -d ${fq(flag.description)}` : ''}`;
}

export function fishScript(tree: CompletionNode, info: ScriptInfo): string {
  const p = info.program;
  const nodes = walk(tree);
  const childCases: string[] = [];
  const valueCases: string[] = [];
  for (const node of nodes) {
    for (const sub of node.children) {
      childCases.push(
        `        case ${[sub.name, ...sub.aliases].map((w) => fq(`${node.path}|${w}`)).join(' ')}`,
        `            echo ${fq(sub.path)}`,
      );
    }
    if (node === tree) continue;
    const takesValue = node.flags.filter((flag) => flag.value.kind !== 'none').flatMap((flag) => [flag.short, flag.long]);
    const patterns = takesValue.filter((name): name is string => name !== undefined).map((name) => fq(`${node.path}|${name}`));
    if (patterns.length > 0) valueCases.push(`        case ${patterns.join(' ')}`, '            return 0');
  }
  // The root's flags: the inherited ones anywhere, the others only before a sub-command (path '').
  const inherited = inheritedFlags(tree);
  const isInherited = (flag: CompletionFlag) => inherited.some((other) => other.long === flag.long && other.short === flag.short);
  const rootPatterns = tree.flags
    .filter((flag) => flag.value.kind !== 'none')
    .flatMap((flag) =>
      [flag.short, flag.long]
        .filter((name): name is string => name !== undefined)
        .map((name) => fq(`${isInherited(flag) ? '*' : ''}|${name}`)),
    );
  if (rootPatterns.length > 0) valueCases.push(`        case ${rootPatterns.join(' ')}`, '            return 0');

  const lines: string[] = [
    `# fish completion for ${p} ${info.version}`,
    `#   mkdir -p ~/.config/fish/completions && ${p} completion fish > ~/.config/fish/completions/${p}.fish`,
    '',
    `function __${p}_child --description 'the sub-command a word names under a command path'`,
    '    switch "$argv[1]|$argv[2]"',
    ...childCases,
    '    end',
    'end',
    '',
    `function __${p}_takes_value --description 'whether a flag of a command path takes a value'`,
    '    switch "$argv[1]|$argv[2]"',
    ...valueCases,
    '    end',
    '    return 1',
    'end',
    '',
    `function __${p}_path --description 'the command path of the words typed so far'`,
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    "    set -l cmd_path ''",
    '    set -l skip 0',
    '    for word in $words',
    '        if test $skip -eq 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    "            case '--'",
    '                break',
    "            case '--*=*'",
    '                continue',
    "            case '-*'",
    `                if __${p}_takes_value "$cmd_path" $word`,
    '                    set skip 1',
    '                end',
    "            case '*'",
    `                set -l next (__${p}_child "$cmd_path" $word)`,
    '                if test -n "$next"',
    '                    set cmd_path $next',
    '                end',
    '        end',
    '    end',
    '    echo $cmd_path',
    'end',
    '',
    `function __${p}_at --description 'whether the command path is exactly the argument'`,
    `    set -l cmd_path (__${p}_path)`,
    '    test "$cmd_path" = "$argv[1]"',
    'end',
    '',
    `complete -c ${p} -f`,
  ];
  for (const flag of tree.flags) lines.push(flagLine(p, isInherited(flag) ? undefined : `__${p}_at ''`, flag));
  for (const node of nodes) {
    const at = `__${p}_at ${fq(node.path)}`;
    for (const sub of node.children)
      lines.push(`complete -c ${p} -n ${fq(at)} -a ${fq(sub.name)}${sub.description ? ` -d ${fq(sub.description)}` : ''}`);
    if (node === tree) continue;
    for (const flag of node.flags) lines.push(flagLine(p, at, flag));
    if (node.children.length === 0) {
      // fish does not count positions here: files anywhere a path goes, and the first argument's words.
      if (node.args.some((arg) => arg.kind === 'files')) lines.push(`complete -c ${p} -n ${fq(at)} -F`);
      const first = node.args[0];
      if (first?.kind === 'words') lines.push(`complete -c ${p} -n ${fq(at)} -a ${fq(first.words.join(' '))}`);
      if (first?.kind === 'profiles') lines.push(`complete -c ${p} -n ${fq(at)} -a ${fq(`(${p} completion __profiles 2>/dev/null)`)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
