// Every verb is declared once, as data (core/verb.ts). These checks read every declaration the
// registry lists, so a verb that forgets what it calls, or its examples, fails here.
import { describe, expect, it } from 'vitest';
import { loadAllNouns } from '../../../src/commands/registry.js';
import { nounCommand } from '../../../src/core/verb-command.js';
import { SERVICE_OPTIONS } from '../../../src/core/global-options.js';
import { operationsOf, verbsOf } from '../../../src/core/verb.js';

describe('verb declarations', () => {
  it('a verb that takes the service options declares the operations it calls', async () => {
    const silent = verbsOf(await loadAllNouns())
      // --profile alone names a profile (`auth logout`); the other service options mean a request.
      .filter(({ verb }) => verb.takes.some((name) => name !== 'profile' && SERVICE_OPTIONS.includes(name)))
      .filter(({ verb }) => verb.calls === 'none' || (Array.isArray(verb.calls) && operationsOf(verb).length === 0))
      .map(({ path }) => path);
    expect(silent).toEqual([]);
  });

  it('every declared verb has a one-line summary and at least one example of itself', async () => {
    const verbs = verbsOf(await loadAllNouns());
    expect(verbs.length).toBeGreaterThan(20);
    for (const { path, verb } of verbs) {
      expect(verb.summary, path).toMatch(/^[^\n]+$/);
      if (verb.hidden) continue;
      expect(verb.examples.length, path).toBeGreaterThan(0);
      // The first runs the verb itself: as the command line, or inside a shell's `<(…)` or after `&&`.
      const itself = new RegExp(`(^|<\\(|&& )appraisal ${path}( |\\)|$)`);
      expect(itself.test(verb.examples[0]!), `${path}: ${verb.examples[0]}`).toBe(true);
    }
  });

  it("the registry is the one place a noun summary is written: the noun's own help says the same", async () => {
    const factory = {
      context(): never {
        throw new Error('no command runs here');
      },
    };
    for (const { noun, module } of await loadAllNouns()) {
      expect(nounCommand(noun, module, factory).description().split('\n')[0], noun.name).toBe(noun.summary);
    }
  });
});
