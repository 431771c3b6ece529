// The one way a CA certificate file the user names is read: the service's (--ca-file,
// APPRAISAL_CA_FILE) and a PostgreSQL server's (sync's sslrootcert, PGSSLROOTCERT). An unreadable or
// non-PEM file is a usage error, reported before any connection, with the caller's hint.
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import { fileErrorWords } from './file-error-words.js';

const CA_FLAG_HINT = 'pass a readable PEM certificate with --ca-file PATH (or APPRAISAL_CA_FILE)';

export function readCaFile(path: string, hint = CA_FLAG_HINT): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the CA file ${path}: ${fileErrorWords(error)}`, { hint });
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UsageError(`the CA file ${path} holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`, {
      hint: 'pass the PEM certificate of the CA that signed the server certificate',
    });
  }
  return pem;
}
