// Every verb of this CLI as declared, for the commands that read the whole list (the MCP tools,
// lease scopes, completion, `spec check`). The registry that knows them imports every command, so
// a command cannot import it; main.ts hands its reader in here once, at start, and commands read it
// from core — the arrows keep pointing one way.
import type { DeclaredVerb } from './verb.js';

type Source = () => Promise<readonly DeclaredVerb[]>;

let source: Source | undefined;

export function provideDeclaredVerbs(read: Source): void {
  source = read;
}

export function declaredVerbs(): Promise<readonly DeclaredVerb[]> {
  if (!source) throw new Error('the declared verbs were not provided (main.ts provides them)');
  return source();
}
