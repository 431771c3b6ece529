// The one undici dispatcher a client uses for every request: keep-alive connections, an extra CA
// added to (not replacing) the bundled roots, and HTTPS_PROXY/HTTP_PROXY/NO_PROXY read from the
// environment the CLI was given rather than from process.env.
//
// Loopback targets (localhost, 127.0.0.0/8, ::1) are never proxied, whatever NO_PROXY says: plain
// http:// is allowed to carry a credential only because such traffic never leaves this machine, and
// through a proxy it would (in clear text, the proxy resolving "localhost" on its own side).
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Dispatcher } from 'undici';
import { Agent, Dispatcher as DispatcherBase, EnvHttpProxyAgent } from './undici.js';
import { warmConnector } from './warm-connections.js';
import { isLoopbackHost } from '../loopback.js';
import type { Env } from '../env.js';
import { UsageError } from '../errors.js';
import { readCaFile } from '../ca-file.js';

export interface DispatcherOptions {
  caFile?: string | undefined;
  env: Env;
  /** Per-request timeout; also bounds connecting and each wait for headers or body bytes. */
  timeoutMs: number;
}

export interface ProxySettings {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string | undefined;
}

function variable(env: Env, name: string): string | undefined {
  // Lower case first, as curl and undici do; an empty value counts as unset.
  const value = env[name.toLowerCase()] ?? env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A proxy variable, checked: a value that is not a URL is a usage error, not a crash in undici. */
function proxyVariable(env: Env, name: string): string | undefined {
  const value = variable(env, name);
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const set = env[name.toLowerCase()] !== undefined ? name.toLowerCase() : name;
    // A proxy value may carry a password (user:pass@host): never shown.
    const shown = value.includes('@') ? `…@${value.slice(value.lastIndexOf('@') + 1)}` : value;
    throw new UsageError(`${set} is not a proxy URL: "${shown}"`, {
      hint: `set it to e.g. http://proxy.example.com:3128, or unset ${set} to connect directly`,
    });
  }
  return value;
}

/** The proxy variables, or undefined when no proxy is configured. */
export function proxySettings(env: Env): ProxySettings | undefined {
  const settings = {
    httpProxy: proxyVariable(env, 'HTTP_PROXY'),
    httpsProxy: proxyVariable(env, 'HTTPS_PROXY'),
    noProxy: variable(env, 'NO_PROXY'),
  };
  return settings.httpProxy === undefined && settings.httpsProxy === undefined ? undefined : settings;
}

/** Whether NO_PROXY exempts this host (`*`, a host name, or a domain suffix, optionally with a port). */
function exempt(url: URL, noProxy: string | undefined): boolean {
  if (noProxy === undefined) return false;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const match = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase().replace(/^\*?\./, ''))!;
      const [, name = '', entryPort] = match;
      if (entryPort !== undefined && entryPort !== port) return false;
      return host === name || host.endsWith(`.${name}`);
    });
}

/** The proxy a request to `url` goes through (as undici's EnvHttpProxyAgent picks it), for messages. */
export function proxyFor(url: URL, env: Env): string | undefined {
  const proxy = proxySettings(env);
  if (proxy === undefined || isLoopbackHost(url.hostname) || exempt(url, proxy.noProxy)) return undefined;
  return url.protocol === 'https:' ? (proxy.httpsProxy ?? proxy.httpProxy) : proxy.httpProxy;
}

/**
 * The default roots plus one more CA. Adding it to a default context (which copies the built-in
 * store first, so other contexts are unaffected) costs ~3 ms of CPU; building a context from
 * `ca: [...rootCertificates, pem]` parses every root from PEM again: ~30 ms on every command.
 */
export function trustingAlso(pem: string): SecureContext {
  const context = createSecureContext();
  context.context.addCACert(pem);
  return context;
}

/** A dispatcher, and a way to open connections ahead of requests it is about to send (warm-connections.ts). */
export interface OpenedDispatcher {
  dispatcher: Dispatcher;
  /** Open `count` connections to `origin` now; nothing through a proxy. */
  warm(origin: URL, count: number): void;
  /** Close the connections opened ahead and not used (the dispatcher closes its own). */
  closeWarm(): void;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return openDispatcher(options).dispatcher;
}

export function openDispatcher(options: DispatcherOptions): OpenedDispatcher {
  // undici parses HTTP in WebAssembly, compiled by V8's baseline compiler only: a flag of the
  // process entry (src/boot/v8-flags.ts, --liftoff-only), which says why.
  // One secure context for every connection: given `ca` instead, each new socket would parse the
  // ~140 system roots again (tens of milliseconds per connection, 8 connections per export).
  const tls = options.caFile === undefined ? {} : { secureContext: trustingAlso(readCaFile(options.caFile)) };
  const common = {
    connect: { ...tls, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    // Node's default (16 KiB), given rather than read from node:http by undici: the bundle defers
    // loading node:http (src/boot/deferred-builtins.ts), and a service's headers stay bounded either way.
    maxHeaderSize: 16 * 1024,
  };
  const proxy = proxySettings(options.env);
  if (proxy === undefined) {
    const connector = warmConnector(common.connect);
    return {
      dispatcher: new Agent({ ...common, connect: connector.connect }),
      warm: (origin, count) => connector.warm(origin, count),
      closeWarm: () => connector.close(),
    };
  }
  const dispatcher = new LoopbackDirect(
    new Agent(common),
    new EnvHttpProxyAgent({
      ...common,
      // Empty strings stop undici from falling back to process.env.
      httpProxy: proxy.httpProxy ?? '',
      httpsProxy: proxy.httpsProxy ?? '',
      noProxy: proxy.noProxy ?? '',
      requestTls: tls,
      proxyTls: tls,
    }),
  );
  return { dispatcher, warm: () => {}, closeWarm: () => {} };
}

function originHost(origin: Dispatcher.DispatchOptions['origin']): string | undefined {
  if (origin === undefined) return undefined;
  try {
    return (typeof origin === 'string' ? new URL(origin) : origin).hostname;
  } catch {
    return undefined;
  }
}

/** Requests to this machine go straight out; everything else through the proxy agent. */
class LoopbackDirect extends DispatcherBase {
  constructor(
    private readonly direct: Dispatcher,
    private readonly proxied: Dispatcher,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const host = originHost(options.origin);
    return (host !== undefined && isLoopbackHost(host) ? this.direct : this.proxied).dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = Promise.all([this.direct.close(), this.proxied.close()]).then(() => undefined);
    if (callback) void done.then(callback);
    else return done;
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(errorOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const error = typeof errorOrCallback === 'function' ? null : (errorOrCallback ?? null);
    const cb = typeof errorOrCallback === 'function' ? errorOrCallback : callback;
    const done = Promise.all([this.direct.destroy(error), this.proxied.destroy(error)]).then(() => undefined);
    if (cb) void done.then(cb);
    else return done;
  }
}
