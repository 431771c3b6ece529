// Section "latency": one request, `props get ID`, against a mock without added latency, compared with
// `node -e 0` + one `curl` of the same URL (the target), a bare node:https request as a whole process,
// and a bare undici client already running (references). Needs curl.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuText, int, ms, r2 } from './lib/format.mjs';
import { cpuOf, plus, STATS_HEADER, statsRow, wallOf } from './lib/samples.mjs';

export default {
  name: 'latency',
  title: 'Single request latency',
  needs: ['curl'],
  targets: {
    latency: 1.6, // x (node -e 0 + curl)
  },
  rows: ({ TARGET }) => [
    {
      id: 'latency-get',
      benchmark: 'Single request: `appraisal props get ID`',
      target: `≤ ${TARGET.latency}x (\`node -e 0\` + one \`curl\`)`,
    },
    {
      id: 'latency-https',
      benchmark: 'Single request: `props get ID` vs a bare `node:https` request (a whole process)',
      target: 'reference, no target',
    },
    {
      id: 'latency-undici',
      benchmark: 'Single request: `props get ID` vs `node -e 0` + one request of a bare undici client already running',
      target: 'reference, no target',
    },
  ],
  async measure(kit, planned) {
    const { RUN, SIZE, TARGET } = kit;
    const mock = await kit.getSmallMock();
    const id = await kit.firstPropertyId(mock);
    const path = `/api/properties/${encodeURIComponent(id)}`;
    const url = `${mock.baseUrl}${path}`;
    const getOut = join(RUN, 'get.json');
    const variants = [
      { key: 'node', label: '`node -e 0`' },
      { key: 'curl', label: '`curl` of the same URL' },
      { key: 'https', label: 'bare `node:https` request, one process (bench/lib/https-once.mjs)' },
      { key: 'undici', label: 'bare undici client already running: the request alone (bench/lib/floor.mjs get)' },
      { key: 'get', label: '`appraisal props get ID -o json`' },
    ];
    const checkRecord = (what, text) => {
      const record = JSON.parse(text);
      if (record?.id !== id) throw new Error(`${what} printed a record with id ${record?.id}, expected ${id}`);
    };
    const samples = await kit.alternate(variants, SIZE.latencyRuns, SIZE.warmups, async (variant) => {
      if (variant.key === 'node') return kit.nodeBare();
      if (variant.key === 'curl')
        return kit.withMockCpu(mock, async () => kit.ensureOk('curl', await kit.curl([...kit.curlBase(mock), url])));
      if (variant.key === 'https') {
        const run = await kit.floorRun(mock, 'https-once.mjs', [path], 'node:https request');
        checkRecord('the node:https floor', run.output);
        return run;
      }
      if (variant.key === 'undici') {
        const run = await kit.floorRun(mock, 'floor.mjs', ['get', path], 'undici request');
        const floor = JSON.parse(run.output);
        if (floor.records !== 1) throw new Error('the undici floor did not read the record');
        // The request alone: what a process already running pays.
        return { ms: floor.ms, cpuMs: floor.cpuMs, mockCpuMs: run.mockCpuMs };
      }
      const run = await kit.withMockCpu(mock, async () =>
        kit.ensureOk('props get', await kit.cli(['props', 'get', id, '-o', 'json'], { mock, stdout: getOut })),
      );
      checkRecord('props get', readFileSync(getOut, 'utf8'));
      return run;
    });
    const get = wallOf(samples.get);
    const bound = wallOf(samples.node) + wallOf(samples.curl);
    const value = get / bound;
    kit.details.latency = { url: url.replace(id, 'ID'), samples };
    kit.targetRow({
      ...planned['latency-get'],
      measured: `${r2(value)}x (${ms(get)} vs ${ms(wallOf(samples.node))} + ${ms(wallOf(samples.curl))})`,
      cpu: `${cpuText(cpuOf(samples.get))} vs ${cpuText(plus(cpuOf(samples.node), cpuOf(samples.curl)))}`,
      value,
      limit: TARGET.latency,
      kind: 'max',
      why: `${ms(get - bound)} above \`node -e 0\` + curl`,
    });
    kit.infoRow({
      ...planned['latency-https'],
      measured: `${r2(get / wallOf(samples.https))}x (${ms(get)} vs ${ms(wallOf(samples.https))})`,
      cpu: `${cpuText(cpuOf(samples.get))} vs ${cpuText(cpuOf(samples.https))}`,
      value: get / wallOf(samples.https),
    });
    const undiciFloor = wallOf(samples.node) + wallOf(samples.undici);
    kit.infoRow({
      ...planned['latency-undici'],
      measured: `${r2(get / undiciFloor)}x (${ms(get)} vs ${ms(wallOf(samples.node))} + ${ms(wallOf(samples.undici))})`,
      cpu: `${cpuText(cpuOf(samples.get))} vs ${cpuText(plus(cpuOf(samples.node), cpuOf(samples.undici)))}`,
      value: get / undiciFloor,
    });
    kit.detail({
      about: `\`props get ID\` against a mock without added latency (HTTPS, ${int(SIZE.memSmall)} records); median of ${SIZE.latencyRuns} runs each, alternating. Every \`props get\` and node:https output is checked to be the requested record. The undici row is the request alone inside a running process (connection and TLS handshake included).`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
};
