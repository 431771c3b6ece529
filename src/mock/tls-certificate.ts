// The HTTPS certificate, generated at start (no openssl needed): a throw-away CA, and a server
// certificate signed by it for localhost, 127.0.0.1 and ::1 (plus --host when it is something else).
// Clients trust the CA PEM as an extra CA (APPRAISAL_CA_FILE) next to the system roots.
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export interface MockCertificate {
  /** The CA certificate: what clients add to their trusted roots. */
  caPem: string;
  /** The server's private key and certificate. */
  keyPem: string;
  certPem: string;
}

type AltName = { type: 2; value: string } | { type: 7; ip: string };

function altNames(extraHosts: readonly string[]): AltName[] {
  const names: AltName[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  for (const host of extraHosts) {
    if (['localhost', '127.0.0.1', '::1', '0.0.0.0', '::', ''].includes(host)) continue;
    names.push(isIP(host) ? { type: 7, ip: host } : { type: 2, value: host });
  }
  return names;
}

export async function generateCertificate(extraHosts: readonly string[] = []): Promise<MockCertificate> {
  const notBeforeDate = new Date(Date.now() - 60 * 60 * 1000);
  const notAfterDate = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
  const ca = await generate(
    [
      { name: 'commonName', value: 'appraisal-cli mock CA' },
      { name: 'organizationName', value: 'appraisal-cli mock' },
    ],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate,
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    },
  );
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: altNames(extraHosts) },
    ],
  });
  return { caPem: ca.cert, keyPem: server.private, certPem: server.cert };
}
