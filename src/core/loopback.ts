// The one rule for "this machine" (issue 26 item 8). A loopback host may get the key over plain
// http://, is never proxied, and makes a profile `local` rather than `production`; so the name must
// reach this machine without asking anyone. Only `localhost` (resolved from /etc/hosts), 127.0.0.0/8
// and ::1 (also IPv4-mapped, ::ffff:127.x.y.z) count. Every other spelling — `localhost.` (a fully
// qualified name glibc sends to DNS), `a.localhost`, `localhost.localdomain` — is any other host.

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
/** ::ffff:127.x.y.z, which the URL parser writes in hex (::ffff:7f00:1). */
const MAPPED_LOOPBACK = /^::ffff:(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/;

/** Whether a URL's hostname (brackets allowed, any case) names this machine without a lookup. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  const v4 = IPV4_LOOPBACK.exec(host);
  if (v4) return v4.slice(1).every((octet) => Number(octet) <= 255);
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return MAPPED_LOOPBACK.test(host);
}
