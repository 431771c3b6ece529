// The floor for the export benchmark: a bare undici client, in one process already started, fetching
// the same pages from the same mock at the same concurrency, doing nothing with the records but
// counting them. Whatever the CLI takes beyond this is the CLI's own cost; whatever this takes
// beyond the latency bound is the mock's and the machine's.
//
//   node bench/lib/floor.mjs CONCURRENCY PAGES LIMIT   (env: APPRAISAL_BASE_URL, _CA_FILE, _API_KEY)
// Prints {"ms": …, "records": …} on stdout.
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';

const [concurrency, pages, limit] = process.argv.slice(2).map(Number);
const { APPRAISAL_BASE_URL: base, APPRAISAL_CA_FILE: caFile, APPRAISAL_API_KEY: key } = process.env;
const connect = caFile ? { secureContext: createSecureContext({ ca: [...rootCertificates, readFileSync(caFile, 'utf8')] }) } : {};
const agent = new Agent({ connect, keepAliveTimeout: 10_000 });

let records = 0;
async function page(n) {
  const response = await request(`${base}/api/properties?page=${n}&limit=${limit}`, {
    dispatcher: agent,
    headers: { 'x-api-key': key, accept: 'application/json' },
  });
  if (response.statusCode !== 200) throw new Error(`page ${n}: HTTP ${response.statusCode}`);
  records += (await response.body.json()).items.length;
}

const started = process.hrtime.bigint();
await page(1);
let next = 2;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next <= pages) await page(next++);
  }),
);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
process.stdout.write(`${JSON.stringify({ ms, records })}\n`);
await agent.close();
