// The install section of the benchmarks (issue 29): start-up of the CLI as users install it, each a
// ratio against a floor measured in the same run, the variants alternating:
//   - the single executable (`npm run package`'s script, built once here): `--version` ≤ 1.3x
//     `node -e 0`, and `props get ID` ≤ 1.7x (`node -e 0` + one `curl` of the same URL);
//   - the npm package installed from its tarball into a private prefix (`npm pack`, `npm install -g
//     --prefix`): `--version` within the clone's start-up bound (its code cache is valid there), and
//     `props get ID` for reference.
// A module of its own: `bench/run.mjs --only install` runs it as a section, and its rows' order comes
// from INSTALL_PLANNED.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

export const INSTALL_TARGET = { exeVersion: 1.3, exeGet: 1.7 };

/** The rows this section produces, in report order (`startup` is the clone's --version bound). */
export function installPlanned(startupTarget) {
  return [
    {
      id: 'install-exe-version',
      benchmark: 'Executable start-up: `appraisal-linux-x64 --version`',
      target: `≤ ${INSTALL_TARGET.exeVersion}x \`node -e 0\``,
    },
    {
      id: 'install-exe-get',
      benchmark: 'Executable single request: `appraisal-linux-x64 props get ID`',
      target: `≤ ${INSTALL_TARGET.exeGet}x (\`node -e 0\` + one \`curl\`)`,
    },
    {
      id: 'install-npm-version',
      benchmark: 'Installed npm package start-up: `appraisal --version`',
      target: `≤ ${startupTarget}x \`node -e 0\``,
    },
    {
      id: 'install-npm-get',
      benchmark: 'Installed npm package: `appraisal props get ID` vs `node -e 0` + one `curl`',
      target: 'reference, no target',
    },
  ];
}

/** npm with the environment minus what an enclosing `npm run` set. */
function npm(args, cwd) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  const run = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0) throw new Error(`npm ${args[0]} failed: ${(run.stderr || run.error?.message || '').trim().split('\n').pop()}`);
  return run.stdout;
}

/** Builds the executable and installs the package under `dir`; returns the two programs. */
export function prepareInstalls(dir) {
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

/**
 * Measures the section with the runner's tools (bench/run.mjs): `kit` holds alternate, runTimed
 * wrappers, the small mock, row writers and sizes, so the figures are taken exactly as the other
 * sections take theirs.
 */
export async function measureInstall(kit) {
  const { dir, SIZE, TARGET, alternate, timed, nodeBare, curl, curlBase, getSmallMock, mockRequest, withMockCpu, wallOf, cpuOf } = kit;
  const { targetRow, infoRow, sections, statsRow, STATS_HEADER, r2, ms, cpuText } = kit;
  const planned = installPlanned(TARGET.startup);
  const { exe, installed } = prepareInstalls(dir);
  const mock = await getSmallMock();
  const first = await mockRequest(mock, 'GET', '/api/properties?page=1&limit=1');
  const id = first.body?.items?.[0]?.id;
  if (first.status !== 200 || typeof id !== 'string')
    throw new Error(`could not read a property id from the mock (status ${first.status})`);
  const url = `${mock.baseUrl}/api/properties/${encodeURIComponent(id)}`;
  const out = join(dir, 'out.json');
  const check = (what) => {
    const text = readFileSync(out, 'utf8');
    if (what === 'version' ? !/^\d+\.\d+\.\d+/.test(text) : JSON.parse(text)?.id !== id)
      throw new Error(`${what} printed ${text.slice(0, 80)}`);
  };
  const variants = [
    { key: 'node', label: '`node -e 0`' },
    { key: 'curl', label: '`curl` of the same URL' },
    { key: 'exeVersion', label: '`appraisal-linux-x64 --version` (executable)', cmd: exe, args: ['--version'], what: 'version' },
    { key: 'exeGet', label: '`appraisal-linux-x64 props get ID -o json` (executable)', cmd: exe, args: ['props', 'get', id, '-o', 'json'] },
    { key: 'npmVersion', label: '`appraisal --version` (npm package)', cmd: installed, args: ['--version'], what: 'version' },
    { key: 'npmGet', label: '`appraisal props get ID -o json` (npm package)', cmd: installed, args: ['props', 'get', id, '-o', 'json'] },
  ];
  const samples = await alternate(variants, SIZE.latencyRuns, SIZE.warmups, async (variant) => {
    if (variant.key === 'node') return nodeBare();
    if (variant.key === 'curl') return withMockCpu(mock, async () => kit.ensureOk('curl', await curl([...curlBase(mock), url])));
    const run = await withMockCpu(mock, () => timed(variant.label, variant.cmd, variant.args, mock, out));
    check(variant.what ?? 'props get');
    return run;
  });
  const node = wallOf(samples.node);
  const bound = node + wallOf(samples.curl);
  const plus = (a, b) => (a === undefined || b === undefined ? undefined : a + b);
  const floorCpu = { version: cpuOf(samples.node), get: plus(cpuOf(samples.node), cpuOf(samples.curl)) };
  for (const [row, key, base, baseText, limit, cpuBase] of [
    [planned[0], 'exeVersion', node, ms(node), INSTALL_TARGET.exeVersion, floorCpu.version],
    [planned[1], 'exeGet', bound, `${ms(node)} + ${ms(wallOf(samples.curl))}`, INSTALL_TARGET.exeGet, floorCpu.get],
    [planned[2], 'npmVersion', node, ms(node), TARGET.startup, floorCpu.version],
  ]) {
    const value = wallOf(samples[key]) / base;
    targetRow({
      ...row,
      measured: `${r2(value)}x (${ms(wallOf(samples[key]))} vs ${baseText})`,
      cpu: `${cpuText(cpuOf(samples[key]))} vs ${cpuText(cpuBase)}`,
      value,
      limit,
      kind: 'max',
      why: `${ms(wallOf(samples[key]) - base)} above the floor, against an allowance of ${ms(base * (limit - 1))}`,
    });
  }
  infoRow({
    ...planned[3],
    measured: `${r2(wallOf(samples.npmGet) / bound)}x (${ms(wallOf(samples.npmGet))} vs ${ms(node)} + ${ms(wallOf(samples.curl))})`,
    cpu: `${cpuText(cpuOf(samples.npmGet))} vs ${cpuText(floorCpu.get)}`,
    value: wallOf(samples.npmGet) / bound,
  });
  sections.push({
    title: '7. Installed start-up',
    about: `The single executable (built here by scripts/package-sea.mjs) and the npm package (npm pack, npm install -g into a private prefix), against the small mock; median of ${SIZE.latencyRuns} runs each, alternating. Every output is checked.`,
    table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
  });
  return samples;
}
