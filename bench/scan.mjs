// Section "scan": `appraisal keys scan DIR` over a large tree of source-like files with three planted
// keys, against GNU grep doing the same search (a reference, no target). Both must report every
// planted key; keys scan by prefix only (it never prints a whole key) and asks the mock which are live.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuText, MiB, ms, r2 } from './lib/format.mjs';
import { which } from './lib/kit.mjs';
import { runTimed } from './lib/proc.mjs';
import { cpuOf, STATS_HEADER, statsRow, wallOf } from './lib/samples.mjs';

export default {
  name: 'scan',
  title: 'keys scan',
  targets: {},
  rows: ({ SIZE }) => [
    {
      id: 'scan-tree',
      benchmark: `\`appraisal keys scan DIR\` over a ${(SIZE.scanBytes / MiB).toFixed(0)} MiB tree`,
      target: 'reference, no target',
    },
  ],
  async measure(kit, planned) {
    const { ENV, RUN, SIZE } = kit;
    const mock = await kit.getSmallMock();
    const tree = join(RUN, 'scan-tree');
    rmSync(tree, { recursive: true, force: true });
    // Source-like text: 400 files in 20 folders, three planted keys (not live on the mock).
    const fileCount = 400;
    const perFile = Math.ceil(SIZE.scanBytes / fileCount);
    const line = 'export const settings = { retries: 3, timeoutMs: 30000, endpoint: "https://example.invalid/api" };\n';
    const body = line.repeat(Math.ceil(perFile / line.length));
    const planted = ['apk_AAAAAAAA_' + 'a'.repeat(32), 'apk_BBBBBBBB_' + 'b'.repeat(32), 'apk_CCCCCCCC_' + 'c'.repeat(32)];
    for (let i = 0; i < fileCount; i++) {
      const dir = join(tree, `pkg-${i % 20}`);
      mkdirSync(dir, { recursive: true });
      const extra = i % 133 === 0 ? `const leaked = "${planted[i / 133]}";\n` : '';
      writeFileSync(join(dir, `module-${i}.ts`), body + extra);
    }
    const grep = which('grep');
    const variants = [
      { key: 'cli', label: '`appraisal keys scan DIR`' },
      ...(grep ? [{ key: 'grep', label: '`grep -rEo PATTERN DIR`' }] : []),
    ];
    const samples = await kit.alternate(variants, SIZE.scanReps, 1, async (variant) => {
      const out = join(RUN, `scan-${variant.key}.txt`);
      const run =
        variant.key === 'cli'
          ? await kit.cli(['keys', 'scan', tree], { mock, stdout: out, timeoutMs: 300_000 })
          : await runTimed({
              cmd: grep,
              args: ['-rEo', 'apk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}', tree],
              env: ENV,
              cwd: RUN,
              stdout: out,
              workDir: RUN,
              timeoutMs: 300_000,
            });
      // keys scan exits 0 when none of the keys it found is live; grep exits 0 when it found any.
      kit.ensureOk(variant.label, run);
      const text = readFileSync(out, 'utf8');
      const want = variant.key === 'cli' ? planted.map((k) => k.slice(0, 12)) : planted;
      for (const key of want) if (!text.includes(key)) throw new Error(`${variant.label} did not report ${key.slice(0, 12)}`);
      if (variant.key === 'cli' && planted.some((k) => text.includes(k))) throw new Error('keys scan printed a whole key');
      return run;
    });
    const cliMs = wallOf(samples.cli);
    const mbPerS = SIZE.scanBytes / MiB / (cliMs / 1000);
    const against = grep ? ` vs grep ${ms(wallOf(samples.grep))} (${r2(cliMs / wallOf(samples.grep))}x)` : '';
    kit.infoRow({
      ...planned['scan-tree'],
      measured: `${ms(cliMs)}, ${mbPerS.toFixed(0)} MiB/s${against}`,
      cpu: cpuText(cpuOf(samples.cli)),
      value: cliMs,
    });
    kit.details.scan = { bytes: SIZE.scanBytes, samples };
    kit.detail({
      about: `${fileCount} files (${(SIZE.scanBytes / MiB).toFixed(0)} MiB) with three planted keys, ${SIZE.scanReps} run(s) each after one warm-up, alternating; both must report every planted key (keys scan by prefix only, and asks the mock which are live).`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
    rmSync(tree, { recursive: true, force: true });
  },
};
