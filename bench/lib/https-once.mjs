// A floor for one request as a whole process: `node` starts, makes one HTTPS request with
// node:https (the key in a header, the extra CA trusted), writes the body to stdout and exits.
// What `appraisal props get ID` does, without the CLI.
//
//   node bench/lib/https-once.mjs PATH   (env: APPRAISAL_BASE_URL, APPRAISAL_CA_FILE, APPRAISAL_API_KEY)
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

const { APPRAISAL_BASE_URL: base, APPRAISAL_CA_FILE: caFile, APPRAISAL_API_KEY: key } = process.env;
const options = { headers: { 'x-api-key': key, accept: 'application/json' }, agent: false };
if (caFile) options.ca = readFileSync(caFile, 'utf8');
request(`${base}${process.argv[2]}`, options, (res) => {
  if (res.statusCode !== 200) process.exitCode = 1;
  res.pipe(process.stdout);
})
  .on('error', (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  })
  .end();
