// Options where they belong: every command declares the global options it takes; its --help lists
// those and the general ones only; the root still parses them all (before or after the command).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadAllNouns } from '../../../src/commands/registry.js';
import { declaredTree } from '../../../src/commands/root.js';
import { UsageError } from '../../../src/core/errors.js';
import {
  addGlobalOptions,
  checkOptionsApply,
  declaresOptions,
  GLOBAL_OPTIONS,
  GLOBAL_VALUE_OPTIONS,
  OUTPUT_OPTIONS,
  PAGING_OPTIONS,
  takesOptions,
} from '../../../src/core/global-options.js';

/** The tree built from every verb's declaration (the one completion reads). */
const fullTree = async (): Promise<Command> => declaredTree('0.0.0', await loadAllNouns());

function leaves(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  if (command.commands.length === 0) return [{ path: path.join(' '), command }];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

describe('global options', () => {
  it('the value-taking ones are derived from the definitions', () => {
    const expected = GLOBAL_OPTIONS.filter((o) => /[<[]/.test(o.flags)).flatMap((o) =>
      o.flags.split(/[ ,]+/).filter((w) => w.startsWith('-')),
    );
    expect([...GLOBAL_VALUE_OPTIONS].sort()).toEqual(expected.sort());
    expect(GLOBAL_VALUE_OPTIONS.has('--page-size')).toBe(true);
    expect(GLOBAL_VALUE_OPTIONS.has('-o')).toBe(true);
    expect(GLOBAL_VALUE_OPTIONS.has('--verbose')).toBe(false);
  });

  it('every command declares the global options it takes, and lists only those in its help', async () => {
    const root = await fullTree();
    const all = leaves(root);
    expect(all.length).toBeGreaterThan(40);
    const undeclared = all.filter(({ command }) => !declaresOptions(command)).map(({ path }) => path);
    expect(undeclared).toEqual([]);
    const byPath = new Map(all.map(({ path, command }) => [path, command.helpInformation()]));
    expect(byPath.get('props create')).not.toMatch(/--page|--max-items|--concurrency/);
    expect(byPath.get('props create')).toMatch(/Output Options:[\s\S]*--fields/);
    expect(byPath.get('props list')).toMatch(/Paging Options:[\s\S]*--page-size/);
    expect(byPath.get('mock')).not.toMatch(/--profile|--output|--page/);
    expect(byPath.get('profiles use')).not.toMatch(/--profile|--output/);
    expect(byPath.get('props delete')).toContain('--yes');
    expect(byPath.get('props get')).not.toContain('--yes');
  });

  it('a global option given to a command that does not take it is a usage error; one it takes passes', async () => {
    const root = new Command('appraisal');
    addGlobalOptions(root);
    const list = takesOptions(new Command('list'), ...OUTPUT_OPTIONS, ...PAGING_OPTIONS).action(() => {});
    const use = takesOptions(new Command('use')).action(() => {});
    root.addCommand(list).addCommand(use);
    root.hook('preAction', (_root, command) => checkOptionsApply(root, command));
    root.exitOverride();
    await root.parseAsync(['list', '--page', '2', '-q'], { from: 'user' });
    expect(root.opts()).toMatchObject({ page: '2', quiet: true });
    await expect(root.parseAsync(['--page', '2', 'use'], { from: 'user' })).rejects.toThrow(UsageError);
    await expect(root.parseAsync(['use', '-o', 'json'], { from: 'user' })).rejects.toThrow(/--output does not apply to `appraisal use`/);
    expect(() => takesOptions(new Command('x'), 'nonsense')).toThrow(/no global option nonsense/);
  });

  it('--fields given twice adds up (comma-joined) instead of the last one winning', async () => {
    const root = new Command('appraisal');
    addGlobalOptions(root);
    root.addCommand(takesOptions(new Command('list'), ...OUTPUT_OPTIONS).action(() => {}));
    root.exitOverride();
    await root.parseAsync(['list', '--fields', 'id,name', '--fields', 'address.city'], { from: 'user' });
    expect(root.opts().fields).toBe('id,name,address.city');
    await root.parseAsync(['list', '--fields', 'id'], { from: 'user' });
    expect(root.opts().fields).toBe('id');
  });
});
