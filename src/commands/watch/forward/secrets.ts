// The webhook secrets (Standard Webhooks): `whsec_` + base64 of the key, one per line of
// --forward-secret-file (two lines: every request carries both signatures, for rotation without
// downtime), or APPRAISAL_WEBHOOK_SECRET (whitespace between several). A missing file is created
// through the safe opener (O_EXCL, 0600 from its first instant) with one new secret; the secret is
// registered with the redactor as soon as it is read or made, and never printed.
import { randomBytes } from 'node:crypto';
import { createOwned, readOwned, UnsafeFileError } from '../../../core/owned-file.js';
import { rememberSecret } from '../../../core/credentials/credential.js';
import type { SecretRedactor } from '../../../core/redact.js';
import { LocalEnvironmentError, UsageError } from '../../../core/errors.js';

export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 bytes; fewer than 16 is no secret worth the name. */
const MIN_KEY_BYTES = 16;
const MAX_KEY_BYTES = 256;
const NEW_KEY_BYTES = 32;
const MAX_FILE_BYTES = 64 * 1024;

export interface WebhookSecrets {
  /** The HMAC keys, in the file's order. */
  keys: Buffer[];
  /** Where they came from, for messages. */
  source: string;
}

/** One `whsec_<base64>` secret as its key; undefined when it is not one. */
export function secretKey(text: string): Buffer | undefined {
  if (!text.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = text.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES ? key : undefined;
}

export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(NEW_KEY_BYTES).toString('base64')}`;
}

const FORMAT_HINT = `each line must be one secret: ${SECRET_PREFIX} followed by the base64 of 16 to 256 random bytes`;

/** Parse secrets from text (lines or whitespace); `source` names where, never what. */
export function parseSecrets(text: string, source: string, redactor: { readonly redactor: SecretRedactor }): WebhookSecrets {
  const words = text.split(/\s+/).filter(Boolean);
  // Registered before anything is checked: a malformed secret is still a secret.
  for (const word of words) rememberSecret(redactor, word);
  const keys: Buffer[] = [];
  for (const [index, word] of words.entries()) {
    const key = secretKey(word);
    if (key === undefined)
      throw new UsageError(`secret ${index + 1} in ${source} is not a ${SECRET_PREFIX}<base64> secret`, { hint: FORMAT_HINT });
    rememberSecret(redactor, word.slice(SECRET_PREFIX.length));
    keys.push(key);
  }
  if (keys.length === 0) throw new UsageError(`${source} holds no webhook secret`, { hint: FORMAT_HINT });
  return { keys, source };
}

export interface SecretSource {
  /** --forward-secret-file, absolute; or the default beside the state file. */
  file: string;
  /** APPRAISAL_WEBHOOK_SECRET, when set and no file was named. */
  env: string | undefined;
  /** The file was named with --forward-secret-file (else it is the default one). */
  named: boolean;
}

/**
 * The secrets to sign with. From the environment when it is set and no file was named; else from
 * the file, created with a new secret when missing (`onCreated` says so, once, without the secret).
 */
export async function loadSecrets(
  source: SecretSource,
  io: { readonly redactor: SecretRedactor },
  onCreated: (path: string) => void,
): Promise<WebhookSecrets> {
  if (source.env !== undefined && source.env.trim() !== '' && !source.named)
    return parseSecrets(source.env, 'APPRAISAL_WEBHOOK_SECRET', io);
  let text: string | undefined;
  try {
    text = await readOwned(source.file, MAX_FILE_BYTES, { private: true, refuseLonger: true });
  } catch (error) {
    if (error instanceof UnsafeFileError) throw error;
    throw new LocalEnvironmentError(`cannot read the webhook secret file ${source.file}: ${(error as Error).message}`);
  }
  if (text !== undefined) return parseSecrets(text, source.file, io);
  const secret = newSecret();
  rememberSecret(io, secret);
  rememberSecret(io, secret.slice(SECRET_PREFIX.length));
  try {
    const handle = await createOwned(source.file, { mode: 0o600 });
    try {
      await handle.writeFile(`${secret}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    // Another watch sharing the file made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSecrets(source, io, onCreated);
    throw new LocalEnvironmentError(`cannot create the webhook secret file ${source.file}: ${(error as Error).message}`);
  }
  onCreated(source.file);
  return { keys: [secretKey(secret)!], source: source.file };
}
