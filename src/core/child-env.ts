// The one way a child process gets its environment (watch --exec hooks, keys rotate --deliver…):
// the CLI's own environment without any credential. A key never reaches a child's environment,
// where `env`, a crash dump or a careless `set -x` would show it.
import type { Env } from './env.js';
import type { SecretRedactor } from './redact.js';

/** Variables that hold a credential of this CLI (or its mock): never passed on. */
export const CREDENTIAL_VARIABLES: readonly string[] = ['APPRAISAL_API_KEY', 'APPRAISAL_TOKEN', 'APPRAISAL_MOCK_ADMIN_KEY'];

/**
 * `env` for a child: credential variables dropped (in any letter case), and any other variable
 * whose value holds a secret (a registered one, e.g. the key copied into MY_KEY, or anything
 * key-shaped) dropped too; then
 * `extra` added. The result is a fresh object safe to hand to spawn().
 */
export function childEnvironment(env: Env, redactor: SecretRedactor, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const banned = new Set(CREDENTIAL_VARIABLES);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || banned.has(name.toUpperCase())) continue;
    // Whatever the redactor would change holds a secret: a known one, a key, a bearer credential.
    if (redactor.redact(value) !== value) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (!banned.has(name.toUpperCase())) out[name] = value;
  }
  return out;
}

/**
 * Copies a child's output line by line through `writeLine` (which redacts and sanitises, like
 * every stderr line): a secret split across two chunks is still whole when it is redacted.
 * Call `flush()` when the child has exited, for a last line without a newline.
 */
export function lineForwarder(writeLine: (line: string) => void): { write(chunk: Buffer | string): void; flush(): void } {
  let pending = '';
  // Bounded: a child that never writes a newline still gets its output shown, in 64 KiB pieces.
  const MAX_LINE = 64 * 1024;
  return {
    write(chunk) {
      pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        writeLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      if (pending.length > MAX_LINE) {
        writeLine(pending);
        pending = '';
      }
    },
    flush() {
      if (pending !== '') writeLine(pending);
      pending = '';
    },
  };
}

/** What a `keys lease` child is given on purpose: the leased key and where it works. */
export interface LeasedCredential {
  secret: string;
  baseUrl: string;
  caFile?: string | undefined;
}

/**
 * `env` for the command `keys lease` runs: `childEnvironment` (so never the CLI's own key, in any
 * variable), then the leased key in APPRAISAL_API_KEY — the one credential a child is ever given,
 * on purpose — and the base URL and CA the lease was made against in their usual variables.
 */
export function leaseEnvironment(env: Env, redactor: SecretRedactor, lease: LeasedCredential): NodeJS.ProcessEnv {
  const out = childEnvironment(env, redactor);
  delete out.APPRAISAL_CA_FILE;
  out.APPRAISAL_BASE_URL = lease.baseUrl;
  if (lease.caFile !== undefined) out.APPRAISAL_CA_FILE = lease.caFile;
  out.APPRAISAL_API_KEY = lease.secret;
  return out;
}
