// The generated certificate: Node's TLS client accepts it for 127.0.0.1, localhost and ::1 when the
// printed CA is added to the system roots (what --ca-file / APPRAISAL_CA_FILE do), rejects it
// without, and it is generated fast.
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { get } from 'node:https';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { generateCertificate } from '../../src/mock/tls-certificate.js';

function fetchStatus(url: string, ca: string[] | undefined): Promise<number | string> {
  return new Promise((resolve) => {
    get(url, { ca, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function withServer(host: string, run: (server: MockServer) => Promise<void>): Promise<void> {
  const server = await startMockServer({ port: 0, host, records: 1 });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

describe('HTTPS certificate', () => {
  it('is generated in well under 2 s, as a CA and a server certificate with IP and DNS names', async () => {
    const started = performance.now();
    const certificate = await generateCertificate();
    expect(performance.now() - started).toBeLessThan(2000);
    const ca = new X509Certificate(certificate.caPem);
    const leaf = new X509Certificate(certificate.certPem);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.subjectAltName).toContain('DNS:localhost');
    expect(leaf.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(leaf.subjectAltName).toMatch(/IP Address:(::1|0:0:0:0:0:0:0:1)/i);
  });

  it('is trusted for https://127.0.0.1 and https://localhost with the CA file added to the system roots, and not without it', async () => {
    await withServer('127.0.0.1', async (server) => {
      expect(server.caFile).toBeDefined();
      const pem = readFileSync(server.caFile!, 'utf8');
      expect(pem).toBe(server.caPem);
      expect(statSync(server.caFile!).mode & 0o777).toBe(0o644);
      const ca = [...rootCertificates, pem];
      expect(await fetchStatus(`${server.baseUrl}/api/openapi.json`, ca)).toBe(200);
      expect(await fetchStatus(`https://localhost:${server.port}/api/openapi.json`, ca)).toBe(200);
      expect(await fetchStatus(`${server.baseUrl}/api/openapi.json`, undefined)).toMatch(/CERT|SELF_SIGNED|UNABLE/);
    });
  });

  it('is trusted for https://[::1] when the host has IPv6 loopback', async () => {
    let server: MockServer;
    try {
      server = await startMockServer({ port: 0, host: '::1', records: 1 });
    } catch {
      return; // no IPv6 loopback here
    }
    try {
      expect(server.baseUrl).toBe(`https://[::1]:${server.port}`);
      expect(await fetchStatus(`${server.baseUrl}/api/openapi.json`, [...rootCertificates, server.caPem!])).toBe(200);
    } finally {
      await server.close();
    }
  });
});
