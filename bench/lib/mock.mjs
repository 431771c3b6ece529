// Starts `appraisal mock` as a child process on a free port and reads the eval-able lines it prints
// (APPRAISAL_BASE_URL / APPRAISAL_CA_FILE / APPRAISAL_API_KEY, optionally `export`ed and quoted).
// Also a minimal HTTPS client for set-up requests that must not depend on the CLI or on curl.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createInterface } from 'node:readline';
import { track } from './proc.mjs';

/** `'it'\''s'` → `it's`; `"x"` → `x`; bare values as they are. */
export function unquote(raw) {
  const value = raw.trim();
  if (value.startsWith("'")) {
    return value
      .split(`'\\''`)
      .map((part) => part.replace(/^'/, '').replace(/'$/, ''))
      .join("'");
  }
  if (value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  return value;
}

/**
 * @param {{bin:string, cwd:string, env:Record<string,string>, records:number, seed?:number, latency?:number, http?:boolean, prerender?:boolean, startTimeoutMs?:number}} o
 */
export function startMock(o) {
  const args = [o.bin, 'mock', '--port', '0', '--records', String(o.records), '--seed', String(o.seed ?? 1)];
  if (o.latency) args.push('--latency', String(o.latency));
  if (o.http) args.push('--http');
  // Pre-rendered pages: the mock spends about a third of the CPU per page, leaving the cores to the client.
  if (o.prerender) args.push('--prerender');
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => (stderr = (stderr + text).slice(-8192)));
  return new Promise((resolve, reject) => {
    const values = {};
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the mock did not print its address within ${(o.startTimeoutMs ?? 120_000) / 1000} s; stderr: ${stderr.trim()}`));
    }, o.startTimeoutMs ?? 120_000);
    const onEarlyExit = (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited early (${signal ?? `exit ${code}`}); stderr: ${stderr.trim()}`));
    };
    child.once('exit', onEarlyExit);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // Keep reading stdout for the mock's whole life so a full pipe never blocks it.
    const lines = createInterface({ input: child.stdout });
    let ready = false;
    lines.on('line', (line) => {
      if (ready) return;
      const match = /^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
      if (!match) return;
      values[match[1]] = unquote(match[2]);
      if (!values.APPRAISAL_BASE_URL || !values.APPRAISAL_API_KEY) return;
      if (!o.http && !values.APPRAISAL_CA_FILE && values.APPRAISAL_BASE_URL.startsWith('https:')) return;
      ready = true;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      const env = { APPRAISAL_BASE_URL: values.APPRAISAL_BASE_URL, APPRAISAL_API_KEY: values.APPRAISAL_API_KEY };
      if (values.APPRAISAL_CA_FILE) env.APPRAISAL_CA_FILE = values.APPRAISAL_CA_FILE;
      resolve({
        baseUrl: values.APPRAISAL_BASE_URL.replace(/\/+$/, ''),
        caFile: values.APPRAISAL_CA_FILE,
        apiKey: values.APPRAISAL_API_KEY,
        env,
        startMs: Number(process.hrtime.bigint() - started) / 1e6,
        process: child,
        stderr: () => stderr,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      });
    });
  });
}

/** One request to the mock with the mock's key; resolves `{status, body}` (body parsed when JSON). */
export function mockRequest(mock, method, path) {
  const url = new URL(mock.baseUrl + path);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: { 'x-api-key': mock.apiKey, accept: 'application/json' },
        ...(mock.caFile ? { ca: readFileSync(mock.caFile) } : {}),
        agent: false,
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode, body });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}
