import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, UsageError } from '../../../../src/core/errors.js';
import { exitCodeFor } from '../../../../src/core/exit-codes.js';
import { type TestServer, json, makeClient, rejection, startServer } from './helpers.js';
import { tempDir } from '../../../helpers/temp.js';

let dir: string;
let caFile: string;
let trusted: TestServer;
let misnamed: TestServer;

async function leaf(ca: { key: string; cert: string }, altNames: Array<{ type: 2; value: string } | { type: 7; ip: string }>) {
  return generate([{ name: 'commonName', value: 'appraisal test server' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
}

beforeAll(async () => {
  dir = tempDir('appraisal-tls-');
  const ca = await generate([{ name: 'commonName', value: 'appraisal test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
  });
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  const good = await leaf({ key: ca.private, cert: ca.cert }, [{ type: 7, ip: '127.0.0.1' }]);
  const wrongName = await leaf({ key: ca.private, cert: ca.cert }, [{ type: 2, value: 'other.example' }]);
  trusted = await startServer((_req, res) => json(res, 200, { id: 'tls' }), { tls: { key: good.private, cert: good.cert } });
  misnamed = await startServer((_req, res) => json(res, 200, { id: 'tls' }), { tls: { key: wrongName.private, cert: wrongName.cert } });
});

afterAll(async () => {
  await trusted.close();
  await misnamed.close();
});

describe('TLS trust', () => {
  it('trusts the service when its CA is given with caFile (in addition to the system roots)', async () => {
    const { client } = makeClient(trusted.url, { caFile });
    try {
      expect(await client.get('/api/properties/1')).toEqual({ id: 'tls' });
    } finally {
      await client.close();
    }
  });

  it('fails without the CA: NetworkError (exit 3) with a --ca-file hint, not retried', async () => {
    const { client } = makeClient(trusted.url);
    try {
      const before = trusted.requests.length;
      const error = (await rejection(client.get('/api/properties/1'))) as NetworkError;
      expect(error).toBeInstanceOf(NetworkError);
      expect(exitCodeFor(error)).toBe(3);
      expect(error.message).toContain('not trusted');
      expect(error.hint).toContain('--ca-file');
      expect(trusted.requests.length).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('reports a host name mismatch', async () => {
    const { client } = makeClient(misnamed.url, { caFile });
    try {
      const error = (await rejection(client.get('/api/properties/1'))) as NetworkError;
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toContain('does not match its host name');
      expect(error.hint).toContain('--ca-file');
    } finally {
      await client.close();
    }
  });

  it('refuses an unreadable or non-PEM CA file with a usage error (exit 2)', () => {
    const missing = (() => {
      try {
        makeClient(trusted.url, { caFile: join(dir, 'missing.pem') });
      } catch (error) {
        return error as Error;
      }
      throw new Error('expected a throw');
    })();
    expect(missing).toBeInstanceOf(UsageError);
    expect(exitCodeFor(missing)).toBe(2);
    expect(missing.message).toContain('cannot read the CA file');
    expect(missing.message).toContain('missing.pem');

    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a certificate');
    expect(() => makeClient(trusted.url, { caFile: junk })).toThrow(/no PEM certificate/);
  });

  it('reports TLS spoken to a plain-HTTP service', async () => {
    const plain = await startServer((_req, res) => json(res, 200, {}));
    const { client } = makeClient(plain.url.replace('http:', 'https:'), { retries: 0 });
    try {
      const error = (await rejection(client.get('/api/x'))) as NetworkError;
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toContain('TLS handshake');
    } finally {
      await client.close();
      await plain.close();
    }
  });
});
