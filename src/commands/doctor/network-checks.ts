// With the network: DNS, TCP and TLS to the service (or DNS and TCP to the proxy it goes through),
// each bounded in time, and whether every configured proxy answers at all. TLS is checked as the
// CLI would connect: the system roots plus the CA file, the service's host name, the chain's dates.
import { lookup } from 'node:dns/promises';
import { connect as tcpConnect } from 'node:net';
import { readFileSync } from 'node:fs';
import { connect as tlsConnect, type PeerCertificate, type SecureContext } from 'node:tls';
import { trustingAlso } from '../../core/http/agent.js';
import { error, maskedUrl, ok, warning, within, type Item } from './finding.js';
import type { ProxyFacts } from './proxy-ca-checks.js';
import { DAY_MS, spanInWords } from '../../core/duration.js';

const STEP_MS = 1500;

function hostPort(url: URL): { host: string; port: number } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

async function dns(check: string, host: string): Promise<Item> {
  const answer = await within(STEP_MS, () => lookup(host, { all: true }).catch((thrown: Error) => thrown));
  if (answer === 'timeout')
    return error(check, `DNS: ${host} did not resolve within ${STEP_MS} ms`, 'check the DNS settings of this machine');
  if (answer instanceof Error)
    return error(
      check,
      `DNS: ${host} does not resolve (${(answer as NodeJS.ErrnoException).code ?? answer.message})`,
      'check the host name in the base URL, or DNS',
    );
  return ok(check, `DNS: ${host} → ${answer.map((entry) => entry.address).join(', ')}`);
}

/**
 * A failed connect in words: only ECONNREFUSED is a refusal. A proxy's host is looked up here, not by
 * dns() (which only the service's host goes through), so a name that does not resolve is said as DNS.
 */
function connectFailure(check: string, host: string, port: number, thrown: NodeJS.ErrnoException): Item {
  const code = thrown.code;
  switch (code) {
    case 'ECONNREFUSED':
      return error(
        check,
        `TCP: ${host}:${port} refused the connection (ECONNREFUSED)`,
        'is the service (or proxy) running at that address?',
      );
    case 'ENOTFOUND':
      return error(check, `DNS: ${host} does not resolve (ENOTFOUND)`, 'check the host name, or DNS');
    case 'EAI_AGAIN':
      return error(
        check,
        `DNS: ${host} could not be resolved now (EAI_AGAIN, a temporary DNS failure)`,
        'check the DNS settings of this machine',
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return error(
        check,
        `TCP: ${host}:${port} cannot be reached (${code === 'EHOSTUNREACH' ? 'no route to the host' : 'network unreachable'})`,
        'check the network of this machine (VPN, routes, firewall)',
      );
    case 'ECONNRESET':
      return error(check, `TCP: ${host}:${port} closed the connection at once (ECONNRESET)`, 'a firewall, or the service is not well');
    default:
      return error(
        check,
        `TCP: cannot connect to ${host}:${port} (${code ?? thrown.message})`,
        'is the service (or proxy) running at that address?',
      );
  }
}

function tcp(check: string, host: string, port: number): Promise<Item> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    const done = (item: Item) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(item);
    };
    const timer = setTimeout(
      () => done(error(check, `TCP: ${host}:${port} did not accept within ${STEP_MS} ms`, 'a firewall, or the service is down')),
      STEP_MS,
    );
    socket.once('connect', () => done(ok(check, `TCP: ${host}:${port} accepts connections`)));
    socket.once('error', (thrown: NodeJS.ErrnoException) => done(connectFailure(check, host, port, thrown)));
  });
}

function tls(host: string, port: number, caFile: string | undefined, now: Date): Promise<Item[]> {
  // The roots plus the CA file, as the CLI's client trusts them (added to a default context: not
  // `ca: [...rootCertificates, pem]`, which parses every root from PEM again, ~30 ms).
  let secureContext: SecureContext | undefined;
  try {
    secureContext = caFile === undefined ? undefined : trustingAlso(readFileSync(caFile, 'utf8'));
  } catch {
    secureContext = undefined;
  }
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host,
      port,
      servername: /^[\d.:]+$/.test(host) ? undefined : host,
      secureContext,
      rejectUnauthorized: false,
    });
    const done = (items: Item[]) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(items);
    };
    const timer = setTimeout(
      () => done([error('tls', `TLS: no handshake with ${host}:${port} within ${STEP_MS} ms`, 'is it an HTTPS port?')]),
      STEP_MS,
    );
    socket.once('error', (thrown: Error) =>
      done([error('tls', `TLS: handshake with ${host}:${port} failed (${thrown.message})`, 'is it an HTTPS port?')]),
    );
    socket.once('secureConnect', () => {
      const items: Item[] = [];
      const peer: PeerCertificate = socket.getPeerCertificate(true);
      if (socket.authorized) items.push(ok('tls', `TLS: certificate chain of ${host} is trusted and names it`));
      else {
        const reason = String(socket.authorizationError ?? 'not trusted');
        items.push(
          error(
            'tls',
            `TLS: ${host}'s certificate is not accepted (${reason})`,
            caFile === undefined ? 'give the CA that signed it with --ca-file or APPRAISAL_CA_FILE' : `is ${caFile} the CA that signed it?`,
          ),
        );
      }
      if (peer.valid_to) {
        const left = Date.parse(peer.valid_to) - now.getTime();
        if (left <= 0) items.push(error('tls', `TLS: the certificate expired ${peer.valid_to}`, 'the service must renew its certificate'));
        else if (left < 14 * DAY_MS)
          items.push(
            warning('tls', `TLS: the certificate expires in ${spanInWords(left)} (${peer.valid_to})`, 'tell whoever runs the service'),
          );
        else items.push(ok('tls', `TLS: the certificate is valid until ${new Date(peer.valid_to).toISOString()}`));
      }
      done(items);
    });
  });
}

export async function checkNetwork(baseUrl: string, caFile: string | undefined, proxy: ProxyFacts, now: Date): Promise<Item[]> {
  const url = new URL(baseUrl);
  const items: Item[] = [];
  // Every configured proxy must at least accept a connection; the one in use decides.
  for (const configured of proxy.configured) {
    let target: URL;
    try {
      target = new URL(configured);
    } catch {
      continue;
    }
    // Not a proxy URL (`alice:pw@proxy:3128` reads as scheme `alice:`): already an error of its own.
    if (target.protocol !== 'http:' && target.protocol !== 'https:') continue;
    const { host, port } = hostPort(target);
    const reached = await tcp('proxy', host, port);
    const inUse = proxy.used === configured;
    if (reached.severity === 'ok') items.push(ok('proxy', `${maskedUrl(configured)} accepts connections`));
    else if (inUse)
      items.push(
        error('proxy', `the proxy ${maskedUrl(configured)} does not answer: ${reached.result}`, 'fix or unset HTTPS_PROXY/HTTP_PROXY'),
      );
    else
      items.push(
        warning(
          'proxy',
          `the proxy ${maskedUrl(configured)} does not answer (${reached.result}); ${url.origin} bypasses it, other hosts would fail`,
          'fix or unset HTTPS_PROXY/HTTP_PROXY',
        ),
      );
  }
  if (proxy.used !== undefined) return items;
  const { host, port } = hostPort(url);
  const resolved = await dns('network', host);
  items.push(resolved);
  if (resolved.severity !== 'ok') return items;
  const connected = await tcp('network', host, port);
  items.push(connected);
  if (connected.severity !== 'ok' || url.protocol !== 'https:') return items;
  items.push(...(await tls(host, port, caFile, now)));
  return items;
}
