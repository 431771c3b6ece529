// Every noun and verb of this CLI as declared, for the commands that read the whole list (`spec
// check`, completion, the MCP tools, lease scopes). The registry that knows them imports every
// command, so a command cannot import it; main.ts hands its loader in here once, at start, and
// commands read it from core — the arrows keep pointing one way.
import { verbsOf, type DeclaredNoun, type DeclaredVerb } from './verb.js';

type Source = () => Promise<readonly DeclaredNoun[]>;

let source: Source | undefined;

export function provideDeclarations(load: Source): void {
  source = load;
}

/** Every noun with its declarations loaded, in registry order. */
export function declaredNouns(): Promise<readonly DeclaredNoun[]> {
  if (!source) throw new Error('the declarations were not provided (main.ts provides them)');
  return source();
}

/** Every verb, in help order; a one-command noun's under the noun's name and summary. */
export async function declaredVerbs(): Promise<readonly DeclaredVerb[]> {
  return verbsOf(await declaredNouns());
}
