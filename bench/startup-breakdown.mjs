#!/usr/bin/env node
// Where start-up time goes: the cost of loading each heavy dependency on its own, bundled the way
// scripts/build.mjs bundles the CLI (esbuild, ESM, minified), measured against `node -e 0` in the
// same run; plus the cost of building the TLS context an extra CA needs. Not part of `npm run bench`;
// run it when a start-up or single-request figure misses its target:
//
//   node bench/startup-breakdown.mjs [--runs 15]
//
// Prints one line per probe: median wall time above `node -e 0`, and peak RSS.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { median, runTimed } from './lib/proc.mjs';

const ROOT = join(import.meta.dirname, '..');
const DIR = join(ROOT, 'bench', '.work', 'breakdown');
const at = process.argv.indexOf('--runs');
const RUNS = at > 0 ? Number(process.argv[at + 1]) : 15;

rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });

// Each probe is an entry module; `import` makes the bundler include it, the side effect keeps it.
const PROBES = {
  commander: "import { Command } from 'commander'; globalThis.x = Command;",
  zod: "import { z } from 'zod'; globalThis.x = z.object({ id: z.string() });",
  'zod/mini': "import * as z from 'zod/mini'; globalThis.x = z.object({ id: z.string() });",
  'undici (whole package)': "import { Agent, request } from 'undici'; globalThis.x = [Agent, request];",
  'undici (Agent + request only)':
    "import Agent from 'undici/lib/dispatcher/agent.js'; import request from 'undici/lib/api/api-request.js'; globalThis.x = [Agent, request];",
  'cli-table3': "import Table from 'cli-table3'; globalThis.x = Table;",
  ora: "import ora from 'ora'; globalThis.x = ora;",
  'new Intl.NumberFormat (ICU data)': "globalThis.x = new Intl.NumberFormat('en-US');",
};

// TLS probes need a PEM: the mock's generator would start a server, so use any bundled root.
const TLS = {
  'TLS context: ca = [...rootCertificates, extra]':
    "import tls from 'node:tls'; const pem = tls.rootCertificates[0]; tls.createSecureContext({ ca: [...tls.rootCertificates, pem] });",
  'TLS context: default roots + addCACert(extra)':
    "import tls from 'node:tls'; const pem = tls.rootCertificates[0]; const c = tls.createSecureContext(); c.context.addCACert(pem);",
};

const files = {};
for (const [name, contents] of Object.entries(PROBES)) {
  const outfile = join(DIR, `${Object.keys(files).length}.mjs`);
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'js' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    minify: true,
    logLevel: 'error',
    external: ['@napi-rs/keyring'],
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  });
  files[name] = outfile;
}
for (const [name, contents] of Object.entries(TLS)) {
  const outfile = join(DIR, `${Object.keys(files).length}.mjs`);
  writeFileSync(outfile, contents);
  files[name] = outfile;
}

const env = { ...process.env };
delete env.NODE_OPTIONS;
const variants = [['node -e 0', ['-e', '0']], ...Object.entries(files).map(([name, file]) => [name, [file]])];
const samples = Object.fromEntries(variants.map(([name]) => [name, []]));
const rss = {};
for (let round = 0; round < RUNS + 1; round++) {
  for (const [name, args] of variants) {
    const run = await runTimed({ cmd: process.execPath, args, env, workDir: DIR, rss: true, timeoutMs: 30_000 });
    if (run.code !== 0) throw new Error(`${name}: exit ${run.code}: ${run.stderr}`);
    if (round > 0) samples[name].push(run.ms);
    rss[name] = Math.max(rss[name] ?? 0, run.rssKiB ?? 0);
  }
}
const base = median(samples['node -e 0']);
const load = spawnSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).stdout?.split(' ')[0];
process.stdout.write(`node ${process.version}, ${RUNS} runs each, load average ${load ?? '?'}\n`);
process.stdout.write(`${'probe'.padEnd(48)} ${'median'.padStart(9)} ${'+ vs node'.padStart(10)} ${'peak RSS'.padStart(10)}\n`);
for (const [name] of variants) {
  const m = median(samples[name]);
  process.stdout.write(
    `${name.padEnd(48)} ${`${m.toFixed(1)} ms`.padStart(9)} ${name === 'node -e 0' ? ''.padStart(10) : `${(m - base).toFixed(1)} ms`.padStart(10)} ${`${(rss[name] / 1024).toFixed(1)} MiB`.padStart(10)}\n`,
  );
}
rmSync(DIR, { recursive: true, force: true });
