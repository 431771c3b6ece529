// `appraisal doctor` against `appraisal mock`, in process (test/helpers/run.ts): a healthy setup
// (exit 0; the built binary in under 3 s: bench/doctor.mjs), and each thing it must find without falling over — a broken config, a keychain that
// is not there, a dead proxy (password masked), an expired CA file (made here with node:crypto and
// selfsigned), a service whose clock is off (the mock's clock offset). Never a secret in the report.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { isolatedEnv } from '../helpers/env.js';
import { mockAdmin, type MockAdmin } from '../helpers/mock-admin.js';
import { startMock, type MockServer } from '../helpers/mock.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
let admin: MockAdmin;

beforeAll(async () => {
  mock = await startMock({ records: 1 });
  admin = mockAdmin(mock);
});
afterAll(async () => {
  await admin?.close();
  await mock?.stop();
});

interface Finding {
  check: string;
  severity: string;
  result: string;
  next: string | null;
}

async function doctor(env: Record<string, string | undefined>, args: string[] = []) {
  const result = await run(['doctor', '-o', 'json', ...args], { env });
  const findings = JSON.parse(result.stdout) as Finding[];
  for (const secret of [mock.adminKey, 'hunter2']) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  return { ...result, findings };
}

/** A port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('appraisal doctor', () => {
  it('a healthy env-only setup: exit 0, no findings; the table shows every check', async () => {
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local' });
    const result = await doctor(env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.findings).toEqual([]);
    // The report as JSON: no findings (how long the built binary takes: bench/doctor.mjs).
    const json = await run(['doctor', '-o', 'json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toBe('[]\n');
    // On a terminal: a list, each check on its own line with its status and its whole result.
    const table = await run(['doctor', '-o', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    for (const check of ['config', 'key source', 'proxy', 'ca file', 'network', 'tls', 'key', 'clock', 'description', 'guard']) {
      expect(table.stdout, check).toMatch(new RegExp(`^\\[(ok|info)\\] +${check}: \\S`, 'm'));
    }
    expect(table.stdout).not.toMatch(/[│┌└]/);
    expect(table.stdout).toContain(`ca file: ${mock.caFile}: `);
  });

  it('a broken config is a finding, not a failure: doctor still runs every other check (exit 20)', async () => {
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local' });
    mkdirSync(env.APPRAISAL_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    writeFileSync(join(env.APPRAISAL_CONFIG_DIR!, 'config.json'), '{"profiles": {');
    const result = await doctor(env);
    expect(result.code, result.stderr).toBe(20);
    expect(result.findings[0]).toMatchObject({ check: 'config', severity: 'error' });
    expect(result.findings[0]!.result).toContain('not valid JSON');
    expect(result.findings[0]!.next).toContain('mv ');
    // The network checks ran all the same: nothing else is wrong.
    expect(result.findings).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: doctor found 1 problem \(1 error, 0 warnings\)$/m);
    // Every finding has a severity and a next step.
    for (const finding of result.findings) {
      expect(['warning', 'error']).toContain(finding.severity);
      expect(finding.next).toBeTruthy();
    }
  });

  it('a profile whose key is in a keychain that is not there: an error with the way out, within the keyring timeout', async () => {
    const env = isolatedEnv({
      APPRAISAL_CA_FILE: mock.caFile,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      APPRAISAL_KEYRING_TIMEOUT: '1000',
    });
    mkdirSync(env.APPRAISAL_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    const origin = new URL(mock.baseUrl).origin;
    writeFileSync(
      join(env.APPRAISAL_CONFIG_DIR!, 'config.json'),
      JSON.stringify({
        activeProfile: 'staging',
        profiles: {
          staging: { baseUrl: mock.baseUrl, environment: 'staging', keyStorage: 'keychain', keyPrefix: 'apk_AbCd1234', keyOrigin: origin },
        },
      }),
    );
    const started = Date.now();
    const result = await doctor(env);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.code, result.stderr).toBe(20);
    const keychain = result.findings.find((finding) => finding.check === 'keychain');
    expect(keychain).toMatchObject({ severity: 'error' });
    // Said once: the reason is the keychain error's own message, which names the keychain already.
    expect(keychain!.result).toMatch(/^the OS keychain (is not available|is locked|did not answer|timed out)/);
    expect(keychain!.next).toContain('APPRAISAL_API_KEY');
  });

  it('a dead proxy: reported with its password masked, and that the loopback service bypasses it', async () => {
    const port = await deadPort();
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', HTTPS_PROXY: `http://ops:hunter2@127.0.0.1:${port}` });
    const result = await doctor(env);
    expect(result.code, result.stderr).toBe(20);
    const proxy = result.findings.find((finding) => finding.check === 'proxy')!;
    expect(proxy.severity).toBe('warning');
    expect(proxy.result).toContain(`http://ops:***@127.0.0.1:${port}`);
    expect(proxy.result).toContain('bypasses it');
    const table = await run(['doctor', '-o', 'table'], { env });
    expect(table.stdout).not.toContain('hunter2');
    // The finding, its whole result on one line, and its next step on the line below.
    expect(table.stdout).toMatch(
      new RegExp(
        `^\\[warning\\] proxy: the proxy http://ops:\\*\\*\\*@127\\.0\\.0\\.1:${port} does not answer .*bypasses it.*\\n {10}next: fix or unset HTTPS_PROXY/HTTP_PROXY$`,
        'm',
      ),
    );
  });

  it('a proxy variable without a scheme (user:password@host:port): its password is masked everywhere, and it is a finding', async () => {
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', HTTPS_PROXY: 'ops:hunter2@proxy.invalid:3128' });
    const result = await doctor(env);
    expect(result.code, result.stderr).toBe(20);
    expect(result.findings.find((finding) => finding.check === 'proxy')).toMatchObject({ severity: 'error' });
    const table = await run(['doctor', '-o', 'table'], { env });
    expect(table.code).toBe(20);
    expect(table.stdout).toContain('[info]    proxy: HTTPS_PROXY=ops:***@proxy.invalid:3128\n');
    expect(table.stdout + table.stderr).not.toContain('hunter2');
  });

  it('a proxy whose host name does not resolve is said as DNS, not as a refusal', async () => {
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', HTTPS_PROXY: 'http://proxy.invalid:3128' });
    const result = await doctor(env);
    expect(result.code, result.stderr).toBe(20);
    const proxy = result.findings.find((finding) => finding.check === 'proxy' && finding.severity !== 'info')!;
    // EAI_AGAIN where no DNS server answers at all: a DNS failure either way.
    expect(proxy.result).toMatch(/\(DNS: proxy\.invalid (does not resolve \(ENOTFOUND\)|could not be resolved now \(EAI_AGAIN)/);
    expect(proxy.result).not.toContain('refused');
  });

  it('a CA file that is not there: its reason in words', async () => {
    const caFile = join(tempDir('doctor-no-ca-'), 'ca.pem');
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', APPRAISAL_CA_FILE: caFile });
    const result = await doctor(env, ['--offline']);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ check: 'ca file', severity: 'error', result: `${caFile} cannot be read: no such file or directory` }),
    );
  });

  it('a CA file that is not PEM: a finding, and doctor runs every other check (every other command refuses it, exit 2)', async () => {
    const caFile = join(tempDir('doctor-not-pem-'), 'ca.der');
    writeFileSync(caFile, Buffer.from([0x30, 0x82, 0x01, 0x0a]));
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', APPRAISAL_CA_FILE: caFile });
    expect((await run(['props', 'list'], { env })).code).toBe(2);
    const result = await doctor(env);
    expect(result.code, result.stderr).toBe(20);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ check: 'ca file', severity: 'error', result: `${caFile} holds no PEM certificate` }),
    );
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        check: 'service',
        severity: 'error',
        result: expect.stringMatching(/^the service checks could not run: the CA file .* holds no PEM certificate/),
      }),
    );
    // The network checks ran all the same: without a CA it trusts, the mock's certificate is not accepted.
    expect(result.findings).toContainEqual(expect.objectContaining({ check: 'tls', severity: 'error' }));
  });

  it('an expired CA file: an error naming it', async () => {
    const dir = tempDir('doctor-ca-');
    const expired = await generate([{ name: 'commonName', value: 'Expired Test CA' }], {
      keySize: 2048,
      notBeforeDate: new Date(Date.now() - 3 * 86_400_000),
      notAfterDate: new Date(Date.now() - 86_400_000),
    });
    const caFile = join(dir, 'expired-ca.pem');
    writeFileSync(caFile, expired.cert);
    const result = await doctor(isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local', APPRAISAL_CA_FILE: caFile }));
    expect(result.code, result.stderr).toBe(20);
    const ca = result.findings.find((finding) => finding.check === 'ca file')!;
    expect(ca).toMatchObject({ severity: 'error' });
    expect(ca.result).toMatch(/Expired Test CA expired/);
    // With that CA the mock's certificate is not trusted either.
    expect(result.findings.some((finding) => finding.check === 'tls' && finding.severity === 'error')).toBe(true);
  });

  it('a service whose clock is 10 minutes off: the skew is an error; --offline skips the network', async () => {
    const env = isolatedEnv({ ...mock.env, APPRAISAL_ENVIRONMENT: 'local' });
    // A mock of its own: its timestamps never go back once its clock went ahead.
    const off = await startMock({ records: 1 });
    const offAdmin = mockAdmin(off);
    try {
      await offAdmin.call('POST', '/__mock/clock', { offsetSeconds: -600 });
      const result = await doctor(isolatedEnv({ ...off.env, APPRAISAL_ENVIRONMENT: 'local' }));
      expect(result.code, result.stderr).toBe(20);
      const clock = result.findings.find((finding) => finding.check === 'clock')!;
      expect(clock.severity).toBe('error');
      expect(clock.result).toMatch(/^this machine's clock is (59\d|60\d)s ahead of the service's$/);
    } finally {
      await offAdmin.close();
      await off.stop();
    }
    const offline = await run(['doctor', '--offline', '-o', 'table'], { env });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('--offline: network checks skipped');
    expect(offline.stdout).not.toMatch(/^\[\w+\] +tls:/m);
  });
});
