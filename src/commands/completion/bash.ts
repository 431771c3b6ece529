// The bash completion script. The command tree is compiled into `case` tables; one small function
// walks the words before the cursor down that tree, then offers sub-commands, flags or a flag's
// values. The same functions serve zsh through bashcompinit (see zsh.ts), so they stay within what
// both shells run alike: no mapfile, no `read -a`, arrays indexed from 0 via COMP_WORDS only, and
// no local named like a zsh special parameter (`path` is tied to PATH, `commands` is the command
// hash): a local keeps the special's meaning in zsh, so `local path=''` emptied PATH.
import { inheritedFlags, walk, type CompletionFlag, type CompletionNode, type ValueSource } from './tree.js';

/** A shell word in single quotes. */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function sourceText(source: ValueSource): string | undefined {
  switch (source.kind) {
    case 'none':
      return undefined;
    case 'free':
      return 'free';
    case 'files':
      return 'files';
    case 'profiles':
      return 'profiles';
    case 'words':
      return `words:${source.words.join(' ')}`;
  }
}

function names(flag: CompletionFlag): string[] {
  return [flag.short, flag.long].filter((name): name is string => name !== undefined);
}

/** Flags offered after `-`: long names, and short names that have no long form. */
function offered(flags: readonly CompletionFlag[]): string[] {
  return flags.flatMap((flag) => (flag.long ? [flag.long] : flag.short ? [flag.short] : []));
}

function caseLine(patterns: string[], value: string): string {
  return `    ${patterns.join('|')}) printf '%s\\n' ${sq(value)} ;;`;
}

export interface ScriptInfo {
  /** The command name completed (`appraisal`). */
  program: string;
  version: string;
}

/** The shell functions shared by bash and zsh; `main` names the entry function. */
export function bashFunctions(tree: CompletionNode, main: string): string {
  const nodes = walk(tree);
  const child: string[] = [];
  const commands: string[] = [];
  const flags: string[] = [];
  const flagValues: string[] = [];
  const args: string[] = [];
  for (const node of nodes) {
    for (const sub of node.children)
      child.push(
        caseLine(
          [sub.name, ...sub.aliases].map((word) => sq(`${node.path}|${word}`)),
          sub.path,
        ),
      );
    if (node.children.length > 0) commands.push(caseLine([sq(node.path)], node.children.map((sub) => sub.name).join(' ')));
    const own = offered(node.flags);
    if (own.length > 0) flags.push(caseLine([sq(node.path)], own.join(' ')));
    if (node !== tree) {
      for (const flag of node.flags) {
        const source = sourceText(flag.value);
        if (source !== undefined)
          flagValues.push(
            caseLine(
              names(flag).map((name) => sq(`${node.path}|${name}`)),
              source,
            ),
          );
      }
    }
    if (node.children.length === 0) {
      // Free positions are listed too when a variadic argument's catch-all follows them.
      node.args.forEach((value, index) => {
        const source = sourceText(value);
        if (source !== undefined && (source !== 'free' || node.variadic)) args.push(caseLine([sq(`${node.path}|${index}`)], source));
      });
      const last = node.args.at(-1);
      const lastSource = last && sourceText(last);
      if (node.variadic && lastSource !== undefined && lastSource !== 'free') args.push(caseLine([`${sq(`${node.path}|`)}*`], lastSource));
    }
  }
  // The root's flags: the inherited ones are accepted after any sub-command, the others only before
  // one (path ''). They come last, after every specific one.
  const inherited = inheritedFlags(tree);
  for (const flag of tree.flags) {
    const source = sourceText(flag.value);
    const anywhere = inherited.some((other) => other.long === flag.long && other.short === flag.short);
    if (source !== undefined)
      flagValues.push(
        caseLine(
          names(flag).map((name) => `${anywhere ? '*' : ''}${sq(`|${name}`)}`),
          source,
        ),
      );
  }
  flags.push(caseLine([sq('*')], offered(inherited).join(' ')));
  const table = (fn: string, comment: string, subject: string, lines: string[]) =>
    [`# ${comment}`, `${fn}() {`, `  case ${subject} in`, ...lines, '  esac', '}', ''].join('\n');
  const p = main;
  return [
    table(`${p}_child`, 'The sub-command a word names under a command path ("" is the root); aliases lead to it.', '"$1|$2"', child),
    table(`${p}_commands`, 'The sub-commands of a command path.', '"$1"', commands),
    table(`${p}_flags`, "The flags of a command path ('*': the ones accepted after any sub-command).", '"$1"', flags),
    table(
      `${p}_flag_value`,
      "What a flag's value is: words:LIST, files, profiles or free; nothing when it takes none.",
      '"$1|$2"',
      flagValues,
    ),
    table(`${p}_args`, 'What positional argument N (from 0) of a command path is.', '"$1|$2"', args),
    `# Fill COMPREPLY from a value source ($1) for the word so far ($2), putting back a prefix ($3).
${p}_values() {
  local source="$1" cur="$2" prefix="$3" bin word
  local -a values
  values=()
  case "$source" in
    words:*) values=( $(compgen -W "\${source#words:}" -- "$cur") ) ;;
    profiles)
      bin="\${COMP_WORDS[0]}"
      values=( $(compgen -W "$("$bin" completion __profiles 2>/dev/null)" -- "$cur") ) ;;
    files)
      if type compopt >/dev/null 2>&1; then compopt -o filenames 2>/dev/null; fi
      local IFS='
'
      values=( $(compgen -f -- "$cur") ) ;;
  esac
  COMPREPLY=()
  for word in "\${values[@]}"; do COMPREPLY+=( "$prefix$word" ); done
  return 0
}

${p}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev='' cmdpath='' word next source flag flags subcommands i=1 npos=0
  COMPREPLY=()
  # Walk the words before the cursor: a sub-command name moves down the tree, a flag that takes a
  # value skips it (bash splits --flag=value at '=' into three words), anything else is a positional
  # argument of the command reached so far.
  while [ "$i" -lt "$COMP_CWORD" ]; do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      --) break ;;
      --*=*) ;;
      -?*)
        if [ -n "$(${p}_flag_value "$cmdpath" "$word")" ]; then
          i=$((i + 1))
          if [ "\${COMP_WORDS[i]:-}" = '=' ]; then i=$((i + 1)); fi
        fi ;;
      *)
        next="$(${p}_child "$cmdpath" "$word")"
        if [ -n "$next" ]; then
          cmdpath="$next"
          npos=0
        else
          npos=$((npos + 1))
        fi ;;
    esac
    i=$((i + 1))
  done
  if [ "$COMP_CWORD" -gt 0 ]; then prev="\${COMP_WORDS[COMP_CWORD-1]}"; fi

  # --flag=value as one word (zsh; bash without '=' in COMP_WORDBREAKS).
  case "$cur" in
    --*=*)
      flag="\${cur%%=*}"
      source="$(${p}_flag_value "$cmdpath" "$flag")"
      if [ -n "$source" ]; then ${p}_values "$source" "\${cur#*=}" "$flag="; fi
      return 0 ;;
  esac
  # The value of the flag before the cursor (also when bash split --flag=value at '=').
  flag="$prev"
  if [ "$cur" = '=' ]; then
    cur=''
  elif [ "$prev" = '=' ] && [ "$COMP_CWORD" -gt 1 ]; then
    flag="\${COMP_WORDS[COMP_CWORD-2]}"
  fi
  case "$flag" in
    -?*)
      source="$(${p}_flag_value "$cmdpath" "$flag")"
      if [ -n "$source" ]; then
        ${p}_values "$source" "$cur" ''
        return 0
      fi ;;
  esac

  case "$cur" in
    -*)
      flags="$(${p}_flags "$cmdpath")"
      if [ -n "$cmdpath" ]; then flags="$flags $(${p}_flags '*')"; fi
      ${p}_values "words:$flags" "$cur" ''
      return 0 ;;
  esac
  subcommands="$(${p}_commands "$cmdpath")"
  if [ -n "$subcommands" ]; then
    ${p}_values "words:$subcommands" "$cur" ''
  else
    source="$(${p}_args "$cmdpath" "$npos")"
    if [ -n "$source" ]; then ${p}_values "$source" "$cur" ''; fi
  fi
  return 0
}
`,
  ].join('\n');
}

export function bashScript(tree: CompletionNode, info: ScriptInfo): string {
  return `# bash completion for ${info.program} ${info.version}
#   source <(${info.program} completion bash)        # this shell; add the line to ~/.bashrc to keep it
#   mkdir -p ~/.local/share/bash-completion/completions && ${info.program} completion bash > ~/.local/share/bash-completion/completions/${info.program}
#   (loaded by the bash-completion package when a shell starts)

${bashFunctions(tree, `_${info.program}`)}
complete -F _${info.program} ${info.program}
`;
}
