// Connections opened ahead of the requests that will use them. A paged read learns how many pages
// there are only from page 1's answer; then its other requests (concurrency − 1 of them) each
// needed a new connection at once: 7 TCP and TLS handshakes in one burst on the client's core,
// ~30 ms before page 2 could even be sent (timestamps of a 200-page export, 2026-11-28). Opened
// while page 1 is on its way instead, they are ready when page 1 arrives.
//
// undici asks this connector for every new connection; one opened ahead for the same origin is
// handed over if there is one, otherwise it connects as it would have. A connection opened ahead
// and not asked for within KEEP_MS is closed (the service would close an idle one anyway), and
// none holds the process open.
import type { Socket } from 'node:net';
import { buildConnector } from './undici.js';

/** How long a connection opened ahead waits to be used before it is closed. */
export const KEEP_MS = 2_000;

type Connect = buildConnector.connector;
type ConnectOptions = buildConnector.Options;
type Callback = buildConnector.Callback;

interface Ahead {
  /** Settles once the handshake is done (or failed: then undici connects anew). */
  ready: Promise<Socket | undefined>;
  socket: Socket | undefined;
  timer: NodeJS.Timeout;
}

export class WarmConnector {
  private readonly ahead = new Map<string, Ahead[]>();
  /** Connections undici asked for that are still connecting, by origin. */
  private readonly connecting = new Map<string, Promise<void>[]>();
  private closed = false;

  constructor(private readonly base: Connect) {}

  /** The connector undici calls (Agent's `connect` option). */
  readonly connect = (options: ConnectOptions, callback: Callback): void => {
    const key = keyOf(options);
    // Known while it connects (opened ahead or not): connections opened ahead later wait for it (warm()).
    let done!: () => void;
    const connecting = new Promise<void>((resolve) => (done = resolve));
    this.connecting.set(key, [...(this.connecting.get(key) ?? []), connecting]);
    const deliver = (error: Error | null, socket: Socket | null): void => {
      this.connecting.set(
        key,
        (this.connecting.get(key) ?? []).filter((other) => other !== connecting),
      );
      (callback as (error: Error | null, socket: Socket | null) => void)(error, socket);
      done();
    };
    const waiting = this.ahead.get(key)?.shift();
    if (waiting === undefined) {
      this.base(options, deliver as Callback);
      return;
    }
    clearTimeout(waiting.timer);
    void waiting.ready.then((socket) => {
      if (socket === undefined || socket.destroyed) this.base(options, deliver as Callback);
      else deliver(null, socket.ref());
    });
  };

  /** Open `count` connections to `origin` now, for requests about to be sent. */
  warm(origin: URL, count: number): void {
    if (this.closed || count <= 0) return;
    const options: ConnectOptions = {
      hostname: origin.hostname,
      host: origin.host,
      protocol: origin.protocol,
      port: origin.port,
      servername: undefined,
    };
    const key = keyOf(options);
    const list = this.ahead.get(key) ?? [];
    this.ahead.set(key, list);
    // After the connections already under way (page 1's): its request goes out first, and the
    // service answers the handshakes while it waits on that request, not before reading it.
    const before = Promise.all(this.connecting.get(key) ?? []);
    for (let i = 0; i < count; i++) {
      const entry = {} as Ahead;
      entry.ready = new Promise((resolve) => {
        void before.then(() => this.open(options, entry, resolve));
      });
      entry.timer = setTimeout(() => this.drop(key, entry), KEEP_MS).unref();
      list.push(entry);
    }
  }

  private open(options: ConnectOptions, entry: Ahead, resolve: (socket: Socket | undefined) => void): void {
    if (this.closed) return resolve(undefined);
    this.base(options, ((error: Error | null, socket: Socket | null) => {
      if (error !== null || socket === null) return resolve(undefined);
      entry.socket = socket.unref();
      resolve(entry.socket);
    }) as Callback);
  }

  /** Close every connection opened ahead and not taken (the dispatcher closes). */
  close(): void {
    this.closed = true;
    for (const [key, list] of this.ahead) for (const entry of [...list]) this.drop(key, entry);
  }

  private drop(key: string, entry: Ahead): void {
    clearTimeout(entry.timer);
    const list = this.ahead.get(key);
    if (list?.includes(entry)) list.splice(list.indexOf(entry), 1);
    entry.socket?.destroy();
    // Still connecting: destroyed once connected.
    void entry.ready.then((socket) => socket?.destroy());
  }
}

function keyOf(options: ConnectOptions): string {
  return `${options.protocol}//${options.host}`;
}

/** A connector that connects as undici's own does (its TLS session cache included), and can warm. */
export function warmConnector(options: buildConnector.BuildOptions): WarmConnector {
  return new WarmConnector(buildConnector(options));
}
