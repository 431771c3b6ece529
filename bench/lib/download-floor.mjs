// The download floor from Node itself: the same work `files download --out` does, written plainly —
// an HTTPS GET whose body is copied socket → file while a sha256 runs over it, then fsync and
// rename. Prints the sha256 (hex) on stdout.
//
//   node bench/lib/download-floor.mjs PATH OUT   (env: APPRAISAL_BASE_URL, APPRAISAL_CA_FILE, APPRAISAL_API_KEY)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { request } from 'node:https';

const { APPRAISAL_BASE_URL: base, APPRAISAL_CA_FILE: caFile, APPRAISAL_API_KEY: key } = process.env;
const [path, out] = process.argv.slice(2);
const options = { headers: { 'x-api-key': key }, agent: false };
if (caFile) options.ca = readFileSync(caFile, 'utf8');
const temp = `${out}.part`;
const file = await open(temp, 'w');
const hash = createHash('sha256');
const response = await new Promise((resolve, reject) => request(`${base}${path}`, options, resolve).on('error', reject).end());
if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
// Whatever arrived since the last write goes out in one write; one write in flight at a time.
let pending = [];
let writing;
const flush = async () => {
  while (pending.length > 0) {
    const chunks = pending;
    pending = [];
    await file.write(Buffer.concat(chunks));
  }
  writing = undefined;
};
for await (const chunk of response) {
  hash.update(chunk);
  pending.push(chunk);
  writing ??= flush();
  if (pending.length > 64) await writing;
}
await writing;
await flush();
await file.sync();
await file.close();
await rename(temp, out);
process.stdout.write(`${hash.digest('hex')}\n`);
