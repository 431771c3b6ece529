// Section "doctor" (issue 28): `appraisal doctor -o json` against the small mock, with a profile set
// only by the environment (APPRAISAL_BASE_URL, _CA_FILE, _API_KEY, as in CI), so it runs every check:
// config, key source, file modes, proxy, CA file, then DNS, TCP and a TLS handshake of its own, and
// the service (the key, the clock, the description, the guard) through the CLI's client. The floor,
// measured in the same run with the variants alternating, is `node -e 0` + one `curl` of the one
// request doctor declares (GET /api/keys/current), as for `props get`'s row. The output is checked
// every run: no finding (`[]`, exit 0). Issue 28's absolute bound, under 3 s, is in the figure too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuText, int, ms, r2 } from './lib/format.mjs';
import { cpuOf, plus, STATS_HEADER, statsRow, wallOf } from './lib/samples.mjs';

export default {
  name: 'doctor',
  title: 'doctor',
  needs: ['curl'],
  targets: {
    // props get's bound (1.6x) plus doctor's own work: a second TLS handshake (its probe of the
    // chain, about one curl of the floor), the DNS and TCP probes and the offline checks.
    doctor: 2, // x (`node -e 0` + one curl)
  },
  rows: ({ TARGET }) => [
    {
      id: 'doctor',
      benchmark: '`appraisal doctor` (every check, the network included)',
      target: `≤ ${TARGET.doctor}x (\`node -e 0\` + one \`curl\`)`,
    },
  ],
  async measure(kit, planned) {
    const { RUN, SIZE, TARGET } = kit;
    const mock = await kit.getSmallMock();
    const url = `${mock.baseUrl}/api/keys/current`;
    // Once as a table (every check, not only findings: a line `[status]  check: result` each): the
    // network and service checks must have run.
    const tableOut = join(RUN, 'doctor.txt');
    kit.ensureOk('doctor -o table', await kit.cli(['doctor', '-o', 'table'], { mock, stdout: tableOut }));
    const table = readFileSync(tableOut, 'utf8');
    for (const check of ['tls', 'key', 'clock'])
      if (!new RegExp(`^\\[ok\\]\\s+${check}: `, 'm').test(table)) throw new Error(`\`doctor\` did not report an ok ${check} check`);
    const out = join(RUN, 'doctor.json');
    const variants = [
      { key: 'node', label: '`node -e 0`' },
      { key: 'curl', label: '`curl` of /api/keys/current' },
      { key: 'doctor', label: '`appraisal doctor -o json`' },
    ];
    const samples = await kit.alternate(variants, SIZE.latencyRuns, SIZE.warmups, async (variant) => {
      if (variant.key === 'node') return kit.nodeBare();
      if (variant.key === 'curl')
        return kit.withMockCpu(mock, async () => kit.ensureOk('curl', await kit.curl([...kit.curlBase(mock), url])));
      const run = await kit.withMockCpu(mock, async () =>
        kit.ensureOk('doctor', await kit.cli(['doctor', '-o', 'json'], { mock, stdout: out })),
      );
      const findings = JSON.parse(readFileSync(out, 'utf8'));
      if (!Array.isArray(findings) || findings.length > 0)
        throw new Error(`doctor reported findings: ${JSON.stringify(findings).slice(0, 200)}`);
      return run;
    });
    const doctor = wallOf(samples.doctor);
    const bound = wallOf(samples.node) + wallOf(samples.curl);
    const value = doctor / bound;
    const slowest = Math.max(...samples.doctor.map((r) => r.ms));
    kit.details.doctor = { url: url.replace(mock.baseUrl, 'BASE'), samples };
    kit.targetRow({
      ...planned.doctor,
      measured: `${r2(value)}x (${ms(doctor)} vs ${ms(wallOf(samples.node))} + ${ms(wallOf(samples.curl))}; slowest ${ms(slowest)} of 3 s)`,
      cpu: `${cpuText(cpuOf(samples.doctor))} vs ${cpuText(plus(cpuOf(samples.node), cpuOf(samples.curl)))}`,
      value,
      limit: TARGET.doctor,
      kind: 'max',
      why: `${ms(doctor - bound)} above \`node -e 0\` + curl`,
    });
    kit.detail({
      about: `\`appraisal doctor -o json\` against a mock without added latency (HTTPS, ${int(SIZE.memSmall)} records), configured by the environment only; median of ${SIZE.latencyRuns} runs each after ${SIZE.warmups} warm-up rounds, alternating. Every run is checked to report no finding (exit 0, \`[]\`); one run as a table beforehand checks that the TLS, key and clock checks ran.`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
};
