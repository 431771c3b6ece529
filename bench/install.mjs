// Section "install": start-up of the CLI as users install it, each a ratio against a floor measured
// in the same run, the variants alternating:
//   - the single executable (`npm run package`'s script, built once here): `--version` ≤ 1.3x
//     `node -e 0`, and `props get ID` ≤ 1.7x (`node -e 0` + one `curl` of the same URL);
//   - the npm package installed from its tarball into a private prefix (`npm pack`, `npm install -g
//     --prefix`): `--version` within the clone's start-up bound (its code cache is valid there), and
//     `props get ID` for reference.
// Needs curl.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuText, ms, r2 } from './lib/format.mjs';
import { runTimed } from './lib/proc.mjs';
import { cpuOf, plus, STATS_HEADER, statsRow, wallOf } from './lib/samples.mjs';

const ROOT = join(import.meta.dirname, '..');

/** npm with the environment minus what an enclosing `npm run` set. */
function npm(args, cwd) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  const run = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0) throw new Error(`npm ${args[0]} failed: ${(run.stderr || run.error?.message || '').trim().split('\n').pop()}`);
  return run.stdout;
}

/** Builds the executable and installs the package under `dir`; returns the two programs. */
function prepareInstalls(dir) {
  mkdirSync(dir, { recursive: true });
  const sea = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package-sea.mjs'), '--out', join(dir, 'sea')], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (sea.status !== 0) throw new Error(`package-sea failed: ${sea.stderr.trim().split('\n').pop()}`);
  const exe = join(
    dir,
    'sea',
    readdirSync(join(dir, 'sea')).find((name) => !name.endsWith('.sha256')),
  );
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-stale', '--clean'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr.trim()}`);
  const [report] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT));
  npm(
    [
      'install',
      '-g',
      '--prefix',
      join(dir, 'prefix'),
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      join(dir, report.filename),
    ],
    dir,
  );
  return { exe, installed: join(dir, 'prefix', 'bin', 'appraisal') };
}

export default {
  name: 'install',
  title: 'Installed start-up',
  needs: ['curl'],
  targets: {
    exeVersion: 1.3, // the executable's --version: x `node -e 0`
    exeGet: 1.7, // the executable's props get: x (`node -e 0` + one curl)
  },
  // The npm package's --version is held to the clone's start-up bound (the startup section's target).
  rows: ({ TARGET }) => [
    {
      id: 'install-exe-version',
      benchmark: 'Executable start-up: `appraisal-linux-x64 --version`',
      target: `≤ ${TARGET.exeVersion}x \`node -e 0\``,
    },
    {
      id: 'install-exe-get',
      benchmark: 'Executable single request: `appraisal-linux-x64 props get ID`',
      target: `≤ ${TARGET.exeGet}x (\`node -e 0\` + one \`curl\`)`,
    },
    {
      id: 'install-npm-version',
      benchmark: 'Installed npm package start-up: `appraisal --version`',
      target: `≤ ${TARGET.startup}x \`node -e 0\``,
    },
    {
      id: 'install-npm-get',
      benchmark: 'Installed npm package: `appraisal props get ID` vs `node -e 0` + one `curl`',
      target: 'reference, no target',
    },
  ],
  async measure(kit, planned) {
    const { ENV, RUN, SIZE, TARGET } = kit;
    const dir = join(RUN, 'install');
    const { exe, installed } = prepareInstalls(dir);
    const mock = await kit.getSmallMock();
    const id = await kit.firstPropertyId(mock);
    const url = `${mock.baseUrl}/api/properties/${encodeURIComponent(id)}`;
    const out = join(dir, 'out.json');
    const timed = async (what, cmd, args) =>
      kit.ensureOk(
        what,
        await runTimed({ cmd, args, env: { ...ENV, ...mock.env }, cwd: RUN, stdout: out, workDir: RUN, timeoutMs: 60_000 }),
      );
    const check = (what) => {
      const text = readFileSync(out, 'utf8');
      if (what === 'version' ? !/^\d+\.\d+\.\d+/.test(text) : JSON.parse(text)?.id !== id)
        throw new Error(`${what} printed ${text.slice(0, 80)}`);
    };
    const variants = [
      { key: 'node', label: '`node -e 0`' },
      { key: 'curl', label: '`curl` of the same URL' },
      { key: 'exeVersion', label: '`appraisal-linux-x64 --version` (executable)', cmd: exe, args: ['--version'], what: 'version' },
      {
        key: 'exeGet',
        label: '`appraisal-linux-x64 props get ID -o json` (executable)',
        cmd: exe,
        args: ['props', 'get', id, '-o', 'json'],
      },
      { key: 'npmVersion', label: '`appraisal --version` (npm package)', cmd: installed, args: ['--version'], what: 'version' },
      { key: 'npmGet', label: '`appraisal props get ID -o json` (npm package)', cmd: installed, args: ['props', 'get', id, '-o', 'json'] },
    ];
    const samples = await kit.alternate(variants, SIZE.latencyRuns, SIZE.warmups, async (variant) => {
      if (variant.key === 'node') return kit.nodeBare();
      if (variant.key === 'curl')
        return kit.withMockCpu(mock, async () => kit.ensureOk('curl', await kit.curl([...kit.curlBase(mock), url])));
      const run = await kit.withMockCpu(mock, () => timed(variant.label, variant.cmd, variant.args));
      check(variant.what ?? 'props get');
      return run;
    });
    const node = wallOf(samples.node);
    const bound = node + wallOf(samples.curl);
    const floorCpu = { version: cpuOf(samples.node), get: plus(cpuOf(samples.node), cpuOf(samples.curl)) };
    for (const [row, key, base, baseText, limit, cpuBase] of [
      [planned['install-exe-version'], 'exeVersion', node, ms(node), TARGET.exeVersion, floorCpu.version],
      [planned['install-exe-get'], 'exeGet', bound, `${ms(node)} + ${ms(wallOf(samples.curl))}`, TARGET.exeGet, floorCpu.get],
      [planned['install-npm-version'], 'npmVersion', node, ms(node), TARGET.startup, floorCpu.version],
    ]) {
      const value = wallOf(samples[key]) / base;
      kit.targetRow({
        ...row,
        measured: `${r2(value)}x (${ms(wallOf(samples[key]))} vs ${baseText})`,
        cpu: `${cpuText(cpuOf(samples[key]))} vs ${cpuText(cpuBase)}`,
        value,
        limit,
        kind: 'max',
        why: `${ms(wallOf(samples[key]) - base)} above the floor, against an allowance of ${ms(base * (limit - 1))}`,
      });
    }
    kit.infoRow({
      ...planned['install-npm-get'],
      measured: `${r2(wallOf(samples.npmGet) / bound)}x (${ms(wallOf(samples.npmGet))} vs ${ms(node)} + ${ms(wallOf(samples.curl))})`,
      cpu: `${cpuText(cpuOf(samples.npmGet))} vs ${cpuText(floorCpu.get)}`,
      value: wallOf(samples.npmGet) / bound,
    });
    kit.details.install = { samples };
    kit.detail({
      about: `The single executable (built here by scripts/package-sea.mjs) and the npm package (npm pack, npm install -g into a private prefix), against the small mock; median of ${SIZE.latencyRuns} runs each, alternating. Every output is checked.`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
};
