// The examples the user is shown, read from where they are shown (the declarations behind every
// --help, README.md and docs/*.md), and read as a shell would read them, for test/e2e/examples.test.ts.
// Nothing here is a copy of an example: a changed example is what the test runs next time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type ParseEntry } from 'shell-quote';
import { ROOT_EXAMPLES, helpVerb } from '../../src/commands/root.js';
import { loadAllNouns } from '../../src/commands/registry.js';
import { verbsOf } from '../../src/core/verb.js';
import { ROOT } from '../helpers/env.js';

/** One command line as shown, with every place it is shown. */
export interface Example {
  text: string;
  sources: string[];
  /** The verb whose --help shows it (its notes can hold the files it reads), when it is a help example. */
  helpOf?: string;
}

function add(examples: Map<string, Example>, text: string, source: string, helpOf?: string): void {
  const known = examples.get(text);
  if (known) known.sources.push(source);
  else examples.set(text, { text, sources: [source], ...(helpOf === undefined ? {} : { helpOf }) });
}

/** Every example of every --help: each declared verb's, the root's and the `help` verb's. */
async function helpExamples(examples: Map<string, Example>): Promise<void> {
  for (const { path, verb } of verbsOf(await loadAllNouns())) for (const text of verb.examples) add(examples, text, `${path} --help`, path);
  for (const text of ROOT_EXAMPLES) add(examples, text, 'appraisal --help');
  const help = helpVerb(() => {
    throw new Error('read, not run');
  });
  for (const text of help.examples) add(examples, text, 'help --help');
}

/** Shell code blocks: command lines run in a shell or by cron (a plain ``` block is a synopsis, not commands). */
const SHELL_BLOCKS = new Set(['sh', 'bash', 'shell', 'console', 'cron', 'yaml']);

/**
 * Every line of a shell block of a Markdown file that runs `appraisal` (a continuation `\` joined to
 * its next line); in a YAML block (a CI job) only the `run:` and `script:` items that do. The
 * executable by its file name (`./appraisal-linux-x64`) and `npm` lines are not `appraisal`.
 */
export function markdownCommandLines(markdown: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  const lines = markdown.split('\n');
  let block: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^```\s*(\S*)/.exec(line);
    if (fence) {
      block = block === undefined ? fence[1]! : undefined;
      continue;
    }
    if (block === undefined || !SHELL_BLOCKS.has(block)) continue;
    let text = line;
    const start = index;
    while (text.endsWith('\\') && index + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++index]!.trim()}`;
    if (block === 'yaml') {
      const item = /^\s*-\s+(?:run:\s+)?(.*)$/.exec(text);
      if (!item) continue;
      text = item[1]!;
    }
    text = text.trim();
    if (text === '' || text.startsWith('#')) continue;
    if (runsAppraisal(text)) found.push({ line: start + 1, text });
  }
  return found;
}

/** `appraisal` as a command word (not `/data/appraisal`, `appraisal-cli`, `./appraisal-linux-x64`). */
function runsAppraisal(text: string): boolean {
  return /(?:^|[\s;&|(])appraisal(?=\s|\)|$)/.test(text);
}

/** The Markdown files shown to users: the README and docs/ (ARCHITECTURE is for contributors). */
export function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'ARCHITECTURE.md')
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Every example: those of every --help, then every command line of the README and docs/. */
export async function allExamples(): Promise<Example[]> {
  const examples = new Map<string, Example>();
  await helpExamples(examples);
  for (const file of markdownFiles()) {
    for (const { line, text } of markdownCommandLines(readFileSync(join(ROOT, file), 'utf8'))) add(examples, text, `${file}:${line}`);
  }
  // The README's MCP registration: the command line an assistant runs.
  const registration = JSON.parse(jsonBlockOf('README.md', '"mcpServers"')) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  for (const server of Object.values(registration.mcpServers))
    add(examples, [server.command, ...server.args].join(' '), 'README.md (mcpServers)');
  return [...examples.values()];
}

/** The first JSON object of a code block of a Markdown file that holds `marker` (a file the docs show). */
export function jsonBlockOf(file: string, marker: string): string {
  const blocks = readFileSync(join(ROOT, file), 'utf8')
    .split(/^```json\n/m)
    .slice(1);
  const block = blocks.map((text) => text.split(/^```/m)[0]!).find((text) => text.includes(marker));
  if (block === undefined) throw new Error(`${file} shows no JSON block with ${marker}`);
  return block;
}

/** The checks file smoke --help shows (`--checks FILE: {…}` in its notes), as a file. */
export async function checksFileOfHelp(): Promise<string> {
  const smoke = verbsOf(await loadAllNouns()).find((declared) => declared.path === 'smoke');
  const shown = /--checks FILE: (\{[\s\S]*?\]\})/.exec(smoke?.verb.notes ?? '')?.[1];
  if (shown === undefined) throw new Error('smoke --help shows no checks file');
  return shown.replace(/\n\s*/g, ' ');
}

// ---- reading a command line as a shell would ----

/** A word of a command after the shell read it; `$NAME` stays a reference until the line runs. */
export type Word = string;

/** One simple command: `NAME=value` prefixes, words, `> file` / `>> file`, a `<(…)` inside. */
export interface SimpleCommand {
  assignments: Record<string, string>;
  words: Word[];
  redirect?: { append: boolean; path: Word };
  /** `source <(appraisal …)`: the command inside. */
  substituted?: SimpleCommand;
}

/** Commands joined by `|`; pipelines joined by `&&` or `;` make the line. */
export type Pipeline = SimpleCommand[];

const VARIABLE = '\u0000';

/** `$NAME` / `${NAME}` as read: resolved against the variables set when that command runs. */
export function expandVariables(word: string, variables: (name: string) => string): string {
  return word.replace(new RegExp(`${VARIABLE}([^${VARIABLE}]+)${VARIABLE}`, 'g'), (_match, name: string) => variables(name));
}

function strftime(format: string, date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const fields: Record<string, string> = {
    F: `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`,
    T: `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`,
    H: two(date.getUTCHours()),
    M: two(date.getUTCMinutes()),
  };
  return format.replace(/%([A-Z])/g, (_match, field: string) => fields[field] ?? `%${field}`);
}

/**
 * The line as a shell reads it: a cron schedule and cron's `\%` undone, `$(date +FORMAT)` replaced
 * by the date, comments dropped, then split into pipelines of simple commands. Throws on a form
 * this reader does not know, so an example using one is noticed, not run half.
 */
export function readCommandLine(text: string, now: Date): Pipeline[] {
  const line = text
    .replace(/^(?:[0-9*/,-]+\s+){5}(?=\S)/, '')
    .replace(/\\%/g, '%')
    .replace(/\$\(date \+([^)]+)\)/g, (_match, format: string) => strftime(format, now));
  const entries = parse(line, (name) => `${VARIABLE}${name}${VARIABLE}`).filter(
    (entry) => !(typeof entry === 'object' && 'comment' in entry),
  );
  const pipelines: Pipeline[] = [];
  let pipeline: Pipeline = [];
  let command: SimpleCommand = { assignments: {}, words: [] };
  const endCommand = () => {
    if (command.words.length === 0 && Object.keys(command.assignments).length === 0) throw new Error(`an empty command in: ${text}`);
    pipeline.push(command);
    command = { assignments: {}, words: [] };
  };
  for (let index = 0; index < entries.length; index++) {
    const entry: ParseEntry = entries[index]!;
    if (typeof entry === 'string') {
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(entry);
      if (assignment && command.words.length === 0) command.assignments[assignment[1]!] = assignment[2]!;
      else command.words.push(entry);
      continue;
    }
    const op = 'op' in entry ? entry.op : undefined;
    if (op === '|') endCommand();
    else if (op === '&&' || op === ';') {
      endCommand();
      pipelines.push(pipeline);
      pipeline = [];
    } else if ((op === '>' || op === '>>') && typeof entries[index + 1] === 'string') {
      command.redirect = { append: op === '>>', path: entries[++index] as string };
    } else if (op === '<(') {
      const close = entries.findIndex(
        (candidate, at) => at > index && typeof candidate === 'object' && 'op' in candidate && candidate.op === ')',
      );
      const inner = entries.slice(index + 1, close);
      if (close < 0 || inner.some((word) => typeof word !== 'string'))
        throw new Error(`a process substitution this test cannot read: ${text}`);
      command.substituted = { assignments: {}, words: inner as string[] };
      index = close;
    } else {
      throw new Error(`a shell form this test cannot read (${JSON.stringify(entry)}) in: ${text}`);
    }
  }
  endCommand();
  pipelines.push(pipeline);
  return pipelines;
}
