// Section "startup": how long the CLI takes to answer without the network, against a bare Node start
// (`node -e 0`) in the same run, the three commands alternating. `--version` is the least any command
// pays; `props list --help` is answered from help pre-rendered at build time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuText, ms, r2 } from './lib/format.mjs';
import { runTimed } from './lib/proc.mjs';
import { cpuOf, STATS_HEADER, statsRow, wallOf } from './lib/samples.mjs';

export default {
  name: 'startup',
  title: 'Start-up',
  targets: {
    startup: 1.25, // --version: x `node -e 0`
    help: 1.2, // props list --help: x `node -e 0`
  },
  rows: ({ TARGET }) => [
    { id: 'startup-help', benchmark: 'Start-up: `appraisal props list --help`', target: `≤ ${TARGET.help}x \`node -e 0\`` },
    { id: 'startup-version', benchmark: 'Start-up: `appraisal --version`', target: `≤ ${TARGET.startup}x \`node -e 0\`` },
  ],
  async measure(kit, planned) {
    const { NODE, NODE_ARGS, BIN, ENV, RUN, SIZE, TARGET } = kit;
    const variants = [
      { key: 'node', label: '`node -e 0`', args: ['-e', '0'] },
      { key: 'version', label: '`appraisal --version`', args: [...NODE_ARGS, BIN, '--version'] },
      { key: 'help', label: '`appraisal props list --help`', args: [...NODE_ARGS, BIN, 'props', 'list', '--help'] },
    ];
    // Once with output kept: the commands must do what they claim, not fail fast.
    const helpOut = join(RUN, 'help.txt');
    kit.ensureOk('props list --help', await kit.cli(['props', 'list', '--help'], { stdout: helpOut }));
    if (!/--concurrency/.test(readFileSync(helpOut, 'utf8'))) throw new Error('`props list --help` does not show the list options');
    const versionOut = join(RUN, 'version.txt');
    kit.ensureOk('--version', await kit.cli(['--version'], { stdout: versionOut }));
    if (!/^\d+\.\d+\.\d+/.test(readFileSync(versionOut, 'utf8'))) throw new Error('`--version` did not print a version');

    const samples = await kit.alternate(variants, SIZE.startupRuns, SIZE.warmups, async (variant) =>
      kit.ensureOk(variant.label, await runTimed({ cmd: NODE, args: variant.args, env: ENV, cwd: RUN, workDir: RUN, timeoutMs: 30_000 })),
    );
    const base = wallOf(samples.node);
    kit.details.startup = { samples };
    for (const [key, row, limit] of [
      ['version', planned['startup-version'], TARGET.startup],
      ['help', planned['startup-help'], TARGET.help],
    ]) {
      const value = wallOf(samples[key]) / base;
      kit.targetRow({
        ...row,
        measured: `${r2(value)}x (${ms(wallOf(samples[key]))} vs ${ms(base)})`,
        cpu: `${cpuText(cpuOf(samples[key]))} vs ${cpuText(cpuOf(samples.node))}`,
        value,
        limit,
        kind: 'max',
        why: `${ms(wallOf(samples[key]) - base)} above a bare Node start, against an allowance of ${ms(base * (limit - 1))}`,
      });
    }
    kit.detail({
      about: `Median of ${SIZE.startupRuns} runs each (after ${SIZE.warmups} warm-up rounds), the three commands alternating; stdout to /dev/null. CPU is user+sys of the child (10 ms resolution).`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
};
