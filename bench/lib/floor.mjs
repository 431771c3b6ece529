// Floors built from Node itself: a bare undici client in one process already started, doing the
// same requests as the CLI against the same mock, and nothing with the answers but counting or
// parsing them. Whatever the CLI takes beyond this (plus a bare `node -e 0` start) is the CLI's own
// cost; whatever this takes beyond the latency bound is the mock's and the machine's.
//
//   node bench/lib/floor.mjs export CONCURRENCY PAGES LIMIT   every page of /api/properties
//   node bench/lib/floor.mjs get PATH                          one request on a new connection
//   node bench/lib/floor.mjs import FILE.ndjson CONCURRENCY    POST each line to /api/properties,
//                                                              as `props import` sends them
//   (env: APPRAISAL_BASE_URL, APPRAISAL_CA_FILE, APPRAISAL_API_KEY)
// Prints {"ms": …, "cpuMs": …, "records": …} on stdout: wall and CPU time of the requests alone,
// from the first request to the last answer parsed (process start-up and undici's load excluded).
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { Agent, request } from 'undici';

const [mode, ...rest] = process.argv.slice(2);
const { APPRAISAL_BASE_URL: base, APPRAISAL_CA_FILE: caFile, APPRAISAL_API_KEY: key } = process.env;
let secureContext;
if (caFile) {
  secureContext = createSecureContext();
  secureContext.context.addCACert(readFileSync(caFile, 'utf8'));
}
const agent = new Agent({ connect: secureContext ? { secureContext } : {}, keepAliveTimeout: 10_000 });

async function get(path) {
  const response = await request(`${base}${path}`, { dispatcher: agent, headers: { 'x-api-key': key, accept: 'application/json' } });
  if (response.statusCode !== 200) throw new Error(`${path}: HTTP ${response.statusCode}`);
  return response.body.json();
}

// Read before the clock starts: the floor is the requests alone.
const bodies = mode === 'import' ? readFileSync(rest[0], 'utf8').split('\n').filter(Boolean) : [];

let records = 0;
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
if (mode === 'export') {
  const [concurrency, pages, limit] = rest.map(Number);
  const page = async (n) => {
    const body = await get(`/api/properties?page=${n}&limit=${limit}`);
    // Not `records += (await …)`: that reads `records` before the await and loses concurrent counts.
    records += body.items.length;
  };
  await page(1);
  let next = 2;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next <= pages) await page(next++);
    }),
  );
} else if (mode === 'get') {
  const record = await get(rest[0]);
  records = typeof record?.id === 'string' ? 1 : 0;
} else if (mode === 'import') {
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(rest[1]) }, async () => {
      while (next < bodies.length) {
        const response = await request(`${base}/api/properties`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'x-api-key': key, accept: 'application/json', 'content-type': 'application/json' },
          body: bodies[next++],
        });
        const answer = await response.body.json();
        if (response.statusCode !== 201 && response.statusCode !== 200) throw new Error(`POST: HTTP ${response.statusCode}`);
        if (typeof (answer.data ?? answer).id === 'string') records++;
      }
    }),
  );
} else {
  throw new Error(`unknown mode ${mode}`);
}
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(`${JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, records })}\n`);
await agent.close();
