// Help that fits (issue 25 §3): every verb's --help, rendered from its declaration through main() as a
// run with stdout not a terminal prints it (80 columns), lists the options that apply to it and
// stands for the shared ones with one line; no leaf over 60 lines, the median at most 40.
import { describe, expect, it } from 'vitest';
import { renderHelp } from '../../../src/boot/help-render.js';
import { loadAllNouns } from '../../../src/commands/registry.js';
import { verbsOf } from '../../../src/core/verb.js';
import { run } from '../../helpers/run.js';

describe('help that fits', () => {
  it('no leaf help is over 60 lines, the median is at most 40, and each points at `help options`', async () => {
    const lengths: Array<[string, number]> = [];
    for (const { path, verb } of verbsOf(await loadAllNouns())) {
      if (verb.hidden) continue;
      const text = await renderHelp(path, '0.0.0');
      expect(text, path).toMatch(/^Shared options \(.*\): appraisal help options$/m);
      // The general options are not listed one by one under every command.
      expect(text, path).not.toMatch(/^Global Options:/m);
      lengths.push([path, text.trimEnd().split('\n').length]);
    }
    expect(lengths.length).toBeGreaterThan(40);
    expect(lengths.filter(([, lines]) => lines > 60)).toEqual([]);
    const sorted = lengths.map(([, lines]) => lines).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(40);
  }, 60_000);

  it('a verb lists only the shared options it takes: `auth login` offers no --spec nor --max-response-size', async () => {
    const login = await renderHelp('auth login', '0.0.0');
    expect(login).not.toMatch(/--spec(?![-\w])|--max-response-size|--output/);
    expect(login).toMatch(/--base-url[\s\S]*--ca-file[\s\S]*--api-key-file/);
    // A service verb's help collapses the service options it takes all of to the one line.
    const get = await renderHelp('props get', '0.0.0');
    expect(get).not.toMatch(/--max-response-size|--retries/);
    expect(get).toMatch(/Shared options \(--profile, --base-url/);
  });

  it('export says what its -o writes: NDJSON by default, no table', async () => {
    const text = await renderHelp('export', '0.0.0');
    const line = text.split('\n').find((l) => l.includes('--output'))!;
    expect(line).toMatch(/default: ndjson/);
    expect(text).not.toMatch(/table on a terminal|"table"/);
  });

  it('`help options` lists every shared option', async () => {
    const { GLOBAL_OPTIONS } = await import('../../../src/core/global-options.js');
    const { code, stdout: text } = await run(['help', 'options']);
    expect(code).toBe(0);
    for (const option of GLOBAL_OPTIONS) expect(text, option.flags).toContain(option.flags);
  });
});
