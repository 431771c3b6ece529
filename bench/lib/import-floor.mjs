// The floor of the import benchmark: a bare undici client, already running, sending the same POSTs as
// `props import` at the same concurrency, and doing nothing with the answers but checking the status.
// Whatever the CLI takes beyond this (plus a bare `node -e 0` start) is the CLI's own cost.
//
//   node bench/lib/import-floor.mjs FILE.ndjson CONCURRENCY
//   (env: APPRAISAL_BASE_URL, APPRAISAL_CA_FILE, APPRAISAL_API_KEY)
// Prints {"ms": …, "cpuMs": …, "records": …}: wall and CPU time of the requests alone.
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { Agent, request } from 'undici';

const [file, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const { APPRAISAL_BASE_URL: base, APPRAISAL_CA_FILE: caFile, APPRAISAL_API_KEY: key } = process.env;
let secureContext;
if (caFile) {
  secureContext = createSecureContext();
  secureContext.context.addCACert(readFileSync(caFile, 'utf8'));
}
const agent = new Agent({ connect: secureContext ? { secureContext } : {}, keepAliveTimeout: 10_000 });
const bodies = readFileSync(file, 'utf8').split('\n').filter(Boolean);

let records = 0;
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const response = await request(`${base}/api/properties`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'x-api-key': key, accept: 'application/json', 'content-type': 'application/json' },
        body,
      });
      const answer = await response.body.json();
      if (response.statusCode !== 201 && response.statusCode !== 200) throw new Error(`POST: HTTP ${response.statusCode}`);
      if (typeof (answer.data ?? answer).id === 'string') records++;
    }
  }),
);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, records })}\n`);
await agent.close();
