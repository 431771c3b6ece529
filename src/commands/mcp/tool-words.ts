// A failed call's `error:` and `hint:` lines as the assistant that made it can act on them: they are
// the command line's (`--updated-since must be …`, `send it anyway with --no-validate`), and a tool
// takes inputs, not flags. A flag the tool has becomes its input (`updated_since`, `validate: false`);
// a hint that names only flags the tool does not take (`run the command with --help`, `--page`) says
// nothing the assistant can do, and is left out. Error lines are kept whole: they say what went wrong.
import type { Tool } from './catalogue.js';

const FLAG = /--[a-z][a-z0-9-]*/g;

/** The input that stands for `flag` in `tool`, as the assistant writes it; undefined when it has none. */
function inputOf(tool: Tool, flag: string): string | undefined {
  const option = tool.options.find((candidate) => candidate.flag === flag);
  if (option) return option.negated ? `${option.property}: false` : option.property;
  // The list inputs the server adds (call.ts): --max-items is max_items, --fields is fields.
  if (tool.isList && (flag === '--max-items' || flag === '--fields')) return flag.slice(2).replace(/-/g, '_');
  return undefined;
}

export function toolWords(said: string, tool: Tool): string {
  const lines: string[] = [];
  for (const line of said.split('\n')) {
    const flags = line.match(FLAG) ?? [];
    if (line.startsWith('hint: ') && flags.length > 0 && flags.every((flag) => inputOf(tool, flag) === undefined)) continue;
    lines.push(line.replace(FLAG, (flag) => inputOf(tool, flag) ?? flag));
  }
  return lines.join('\n');
}
