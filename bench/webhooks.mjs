// Section "webhooks" (issue 36): `appraisal watch props --emit-existing --once --forward-to URL`, the
// first poll of 1,000 records, delivered one at a time to a receiver in this process that answers at
// once (204). The figure is the time from the first request's arrival to the last's, as the receiver
// sees it; the floor, measured in the same run with the variants alternating, is a plain Node loop
// POSTing the same 1,000 bodies (the lines the CLI printed) with undici, one at a time, timed the same
// way. The CLI's extra per event: signing (HMAC-SHA256), the outbox's lines, the stdout line. Every CLI
// run is checked: 1,000 requests, 1,000 distinct webhook-ids, exit 0.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { cpuText, ms, r2 } from './lib/format.mjs';
import { runTimed } from './lib/proc.mjs';
import { cpuOf, STATS_HEADER, statsRow, wallOf } from './lib/samples.mjs';

const EVENTS = 1_000;

/** The floor: POST each line of BODIES to URL with undici, one at a time, each answer drained. */
const FLOOR = `
const { createRequire } = require('node:module');
const { readFileSync } = require('node:fs');
const [root, url, file] = process.argv.slice(2);
const { request } = createRequire(root + '/package.json')('undici');
const bodies = readFileSync(file, 'utf8').split('\\n').filter(Boolean);
(async () => {
  for (const body of bodies) {
    const answer = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await answer.body.dump();
  }
})();
`;

/** A receiver answering 204 at once, noting when the first and the last request of a run arrived. */
async function startReceiver() {
  const state = { count: 0, ids: new Set(), first: 0n, last: 0n };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const now = process.hrtime.bigint();
      if (state.count === 0) state.first = now;
      state.last = now;
      state.count++;
      const id = req.headers['webhook-id'];
      if (id) state.ids.add(id);
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    reset: () => Object.assign(state, { count: 0, ids: new Set(), first: 0n, last: 0n }),
    state,
    spanMs: () => Number(state.last - state.first) / 1e6,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export default {
  name: 'webhooks',
  title: 'watch --forward-to',
  targets: {
    webhooks: 1.5, // x a plain undici loop POSTing the same bodies one at a time
  },
  rows: ({ TARGET }) => [
    {
      id: 'webhooks',
      benchmark: `\`watch --forward-to\`: ${EVENTS.toLocaleString('en-US')} events (an --emit-existing first poll), first to last delivery`,
      target: `≤ ${TARGET.webhooks}x (a plain undici loop POSTing the same bodies)`,
    },
  ],
  async measure(kit, planned) {
    const { RUN, SIZE, TARGET } = kit;
    const mock = await kit.mock({ records: EVENTS, seed: 3 });
    const receiver = await startReceiver();
    const dir = join(RUN, 'webhooks');
    mkdirSync(dir, { recursive: true });
    const secret = join(dir, 'hooks.secret');
    writeFileSync(secret, `whsec_${Buffer.alloc(32, 9).toString('base64')}\n`, { mode: 0o600 });
    const bodies = join(dir, 'bodies.ndjson');
    const floorScript = join(dir, 'floor.cjs');
    writeFileSync(floorScript, FLOOR);
    let runs = 0;
    const runCli = async () => {
      const state = join(dir, `run-${runs++}.state`);
      receiver.reset();
      const run = await kit.withMockCpu(mock, async () =>
        kit.ensureOk(
          'watch --forward-to',
          await kit.cli(
            [
              'watch',
              'props',
              '--state-file',
              state,
              '--emit-existing',
              '--once',
              '--forward-to',
              receiver.url,
              '--forward-secret-file',
              secret,
            ],
            { mock, stdout: bodies },
          ),
        ),
      );
      if (receiver.state.count !== EVENTS || receiver.state.ids.size !== EVENTS)
        throw new Error(`the receiver got ${receiver.state.count} requests with ${receiver.state.ids.size} ids, not ${EVENTS}`);
      return { ...run, ms: receiver.spanMs() };
    };
    // Once first: the bodies the floor sends are the lines this run printed.
    await runCli();
    if (readFileSync(bodies, 'utf8').split('\n').filter(Boolean).length !== EVENTS)
      throw new Error('watch printed fewer events than it delivered');
    const variants = [
      { key: 'floor', label: `undici loop, ${EVENTS} POSTs one at a time` },
      { key: 'cli', label: '`appraisal watch props --emit-existing --once --forward-to URL`' },
    ];
    const samples = await kit.alternate(variants, Math.max(3, Math.round(SIZE.exportReps * 2)), 1, async (variant) => {
      if (variant.key === 'cli') return runCli();
      receiver.reset();
      const run = kit.ensureOk(
        'floor',
        await runTimed({
          cmd: kit.NODE,
          args: [floorScript, kit.ROOT, receiver.url, bodies],
          env: kit.ENV,
          cwd: dir,
          workDir: RUN,
          timeoutMs: 120_000,
        }),
      );
      if (receiver.state.count !== EVENTS) throw new Error(`the floor sent ${receiver.state.count} requests, not ${EVENTS}`);
      return { ...run, ms: receiver.spanMs() };
    });
    await receiver.close();
    await mock.stop();
    const cli = wallOf(samples.cli);
    const floor = wallOf(samples.floor);
    const value = cli / floor;
    kit.details.webhooks = { samples };
    kit.targetRow({
      ...planned.webhooks,
      measured: `${r2(value)}x (${ms(cli)} vs ${ms(floor)})`,
      cpu: `${cpuText(cpuOf(samples.cli))} vs ${cpuText(cpuOf(samples.floor))} (whole processes)`,
      value,
      limit: TARGET.webhooks,
      kind: 'max',
      why: `${ms((cli - floor) / EVENTS)} more per event than the loop`,
    });
    kit.detail({
      about: `${EVENTS} events (the first poll of a ${EVENTS}-record mock with --emit-existing) delivered to a local receiver answering 204 at once; the time from the first request's arrival to the last's, as the receiver sees it, median of the rounds, alternating with a plain Node loop POSTing the same bodies with undici one at a time. Every CLI run is checked: ${EVENTS} requests with ${EVENTS} distinct webhook-ids, exit 0.`,
      table: { header: STATS_HEADER, rows: variants.map((v) => statsRow(v.label, samples[v.key])) },
    });
  },
};
