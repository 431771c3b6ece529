// The zsh completion script: the bash functions run through zsh's bashcompinit, which supplies
// `complete` and `compgen` (and runs the function in sh emulation, so arrays index from 0 as in bash).
// Works sourced from ~/.zshrc after compinit, and installed as `_appraisal` in a directory of $fpath.
import { bashFunctions, type ScriptInfo } from './bash.js';
import type { CompletionNode } from './tree.js';

export function zshScript(tree: CompletionNode, info: ScriptInfo): string {
  const fn = `_${info.program}_bash`;
  return `#compdef ${info.program}
# zsh completion for ${info.program} ${info.version}
#   source <(${info.program} completion zsh)     # in ~/.zshrc, after \`autoload -U compinit && compinit\`
#   ${info.program} completion zsh > "\${fpath[1]}/_${info.program}"   # or install it, then start a new shell

if ! (( $+functions[complete] )); then
  autoload -U +X bashcompinit && bashcompinit
fi

${bashFunctions(tree, fn)}
complete -F ${fn} ${info.program}
# Autoloaded from $fpath as the completion function itself: also complete the word asked for now.
if [[ "\${funcstack[1]:-}" == _${info.program} ]]; then
  _bash_complete -F ${fn}
fi
`;
}
