// Offline: the proxy variables in effect for the base URL (passwords masked) and whether the base
// URL bypasses them (loopback, NO_PROXY); the CA file readable, a PEM, and its certificates in date.
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import type { Context } from '../../core/context.js';
import { fileErrorWords } from '../../core/file-error-words.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { error, info, maskedUrl, ok, type Item } from './finding.js';

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];

export interface ProxyFacts {
  /** The proxy a request to the base URL goes through, when one does. */
  used: string | undefined;
  /** Every proxy configured (checked for reachability with the network checks). */
  configured: string[];
}

export async function checkProxy(ctx: Context, baseUrl: string | undefined): Promise<{ items: Item[]; facts: ProxyFacts }> {
  const items: Item[] = [];
  const set = PROXY_VARIABLES.flatMap((name) => {
    const value = ctx.env[name.toLowerCase()] ?? ctx.env[name];
    return value === undefined || value.trim() === '' ? [] : [`${name}=${name === 'NO_PROXY' ? value : maskedUrl(value)}`];
  });
  if (set.length === 0) {
    items.push(ok('proxy', 'no proxy variables set: connections go direct'));
    return { items, facts: { used: undefined, configured: [] } };
  }
  items.push(info('proxy', set.join(' ')));
  const configured = ['HTTPS_PROXY', 'HTTP_PROXY'].flatMap((name) => {
    const value = ctx.env[name.toLowerCase()] ?? ctx.env[name];
    return value === undefined || value.trim() === '' ? [] : [value.trim()];
  });
  let used: string | undefined;
  if (baseUrl !== undefined) {
    try {
      const { proxyFor } = await import('../../core/http/agent.js');
      const url = new URL(baseUrl);
      used = proxyFor(url, ctx.env);
      if (used !== undefined) items.push(info('proxy', `requests to ${url.origin} go through ${maskedUrl(used)}`));
      else if (isLoopbackHost(url.hostname)) items.push(ok('proxy', `${url.origin} is this machine: it bypasses the proxy`));
      else items.push(info('proxy', `${url.origin} bypasses the proxy (NO_PROXY)`));
    } catch (thrown) {
      items.push(
        error('proxy', (thrown as Error).message, 'set the variable to a proxy URL such as http://proxy.example.com:3128, or unset it'),
      );
    }
  }
  return { items, facts: { used, configured } };
}

export function checkCaFile(ctx: Context, caFile: string | undefined): Item[] {
  if (caFile === undefined) return [];
  let pem: string;
  try {
    pem = readFileSync(caFile, 'utf8');
  } catch (thrown) {
    return [
      error('ca file', `${caFile} cannot be read: ${fileErrorWords(thrown)}`, 'point --ca-file / APPRAISAL_CA_FILE at a readable PEM file'),
    ];
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0)
    return [error('ca file', `${caFile} holds no PEM certificate`, 'export the CA certificate as PEM (-----BEGIN CERTIFICATE-----)')];
  const now = ctx.now().getTime();
  const items: Item[] = [];
  for (const block of blocks) {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block);
    } catch (thrown) {
      items.push(
        error(
          'ca file',
          `${caFile}: a certificate cannot be parsed (${(thrown as Error).message})`,
          'replace the file with a valid PEM certificate',
        ),
      );
      continue;
    }
    const subject = cert.subject.replace(/\n/g, ', ');
    if (Date.parse(cert.validTo) <= now) {
      items.push(
        error(
          'ca file',
          `${caFile}: ${subject} expired ${new Date(cert.validTo).toISOString()}`,
          'get the current CA certificate from whoever runs the service',
        ),
      );
    } else if (Date.parse(cert.validFrom) > now) {
      items.push(
        error(
          'ca file',
          `${caFile}: ${subject} is not valid before ${new Date(cert.validFrom).toISOString()}`,
          'check the clock of this machine',
        ),
      );
    } else {
      items.push(ok('ca file', `${caFile}: ${subject}, valid until ${new Date(cert.validTo).toISOString()}`));
    }
  }
  return items;
}
