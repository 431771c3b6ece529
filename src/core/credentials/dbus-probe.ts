// Linux only: ask the session bus, asynchronously and with a deadline, whether a Secret Service
// answers, before the native keyring binding is touched. The binding connects to D-Bus
// synchronously when an entry is created: with a bus or Secret Service that accepts the connection
// and never answers, it would block the event loop — no timer could fire and the CLI would hang.
// This probe speaks just enough D-Bus for that: the EXTERNAL auth handshake, Hello, and a Peer.Ping
// to org.freedesktop.secrets (which also starts an activatable Secret Service, as the binding would).
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Env } from '../env.js';

export type BusAddress = { path: string } | { host: string; port: number };

/** The first address of DBUS_SESSION_BUS_ADDRESS we can connect to (libdbus also falls back to
 *  $XDG_RUNTIME_DIR/bus); undefined when there is none. */
export function sessionBusAddress(env: Env): BusAddress | undefined {
  const raw = env.DBUS_SESSION_BUS_ADDRESS;
  if (!raw) {
    const runtime = env.XDG_RUNTIME_DIR;
    return runtime && existsSync(join(runtime, 'bus')) ? { path: join(runtime, 'bus') } : undefined;
  }
  for (const entry of raw.split(';')) {
    const colon = entry.indexOf(':');
    if (colon < 0) continue;
    const transport = entry.slice(0, colon);
    const params = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) params.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    }
    if (transport === 'unix' && params.has('path')) return { path: params.get('path')! };
    if (transport === 'unix' && params.has('abstract')) return { path: `\0${params.get('abstract')!}` };
    if (transport === 'tcp' && params.has('port')) return { host: params.get('host') ?? 'localhost', port: Number(params.get('port')) };
  }
  return undefined;
}

// ---- the smallest D-Bus message writer/reader that serves the probe ----

class Writer {
  private bytes: number[] = [];
  get length(): number {
    return this.bytes.length;
  }
  align(n: number): void {
    while (this.bytes.length % n !== 0) this.bytes.push(0);
  }
  byte(value: number): void {
    this.bytes.push(value & 0xff);
  }
  uint32(value: number): void {
    this.align(4);
    this.bytes.push(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
  }
  setUint32(at: number, value: number): void {
    this.bytes[at] = value & 0xff;
    this.bytes[at + 1] = (value >>> 8) & 0xff;
    this.bytes[at + 2] = (value >>> 16) & 0xff;
    this.bytes[at + 3] = (value >>> 24) & 0xff;
  }
  string(value: string): void {
    const encoded = Buffer.from(value, 'utf8');
    this.uint32(encoded.length);
    this.bytes.push(...encoded, 0);
  }
  signature(value: string): void {
    this.byte(value.length);
    this.bytes.push(...Buffer.from(value, 'ascii'), 0);
  }
  buffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

interface Call {
  serial: number;
  path: string;
  interface: string;
  member: string;
  destination: string;
}

/** A METHOD_CALL with no body, little-endian. */
export function encodeCall(call: Call): Buffer {
  const w = new Writer();
  w.byte('l'.charCodeAt(0));
  w.byte(1); // METHOD_CALL
  w.byte(0); // flags
  w.byte(1); // protocol version
  w.uint32(0); // body length
  w.uint32(call.serial);
  const fieldsLengthAt = w.length;
  w.uint32(0);
  const fieldsStart = w.length;
  const fields: Array<[number, string, string]> = [
    [1, 'o', call.path],
    [2, 's', call.interface],
    [3, 's', call.member],
    [6, 's', call.destination],
  ];
  for (const [code, type, value] of fields) {
    w.align(8);
    w.byte(code);
    w.signature(type);
    w.string(value);
  }
  w.setUint32(fieldsLengthAt, w.length - fieldsStart);
  w.align(8);
  return w.buffer();
}

export interface Reply {
  type: number;
  replySerial: number | undefined;
  errorName: string | undefined;
}

/** Parse one message at the start of `data`; undefined until it is complete. */
export function decodeMessage(data: Buffer): { reply: Reply; size: number } | undefined {
  if (data.length < 16) return undefined;
  const little = data[0] === 0x6c; // 'l'
  const u32 = (at: number) => (little ? data.readUInt32LE(at) : data.readUInt32BE(at));
  const bodyLength = u32(4);
  const fieldsLength = u32(12);
  const headerEnd = 16 + fieldsLength;
  const size = Math.ceil(headerEnd / 8) * 8 + bodyLength;
  if (data.length < size) return undefined;
  let replySerial: number | undefined;
  let errorName: string | undefined;
  let at = 16;
  const align = (n: number) => {
    at = Math.ceil(at / n) * n;
  };
  while (at < headerEnd) {
    align(8);
    if (at >= headerEnd) break;
    const code = data[at++]!;
    const sigLength = data[at++]!;
    const signature = data.toString('ascii', at, at + sigLength);
    at += sigLength + 1;
    if (signature === 's' || signature === 'o') {
      align(4);
      const length = u32(at);
      const value = data.toString('utf8', at + 4, at + 4 + length);
      at += 4 + length + 1;
      if (code === 4) errorName = value;
    } else if (signature === 'g') {
      const length = data[at]!;
      at += 1 + length + 1;
    } else if (signature === 'u') {
      align(4);
      if (code === 5) replySerial = u32(at);
      at += 4;
    } else {
      break; // Not a field the probe needs; the ones before it were read.
    }
  }
  return { reply: { type: data[1]!, replySerial, errorName }, size };
}

export type ProbeResult = { ok: true } | { ok: false; kind: 'unavailable' | 'timeout'; reason: string };

/**
 * Whether a Secret Service answers on the session bus within `timeoutMs`. Never throws, never
 * leaves the socket open.
 */
export function probeSecretService(env: Env, timeoutMs: number, uid = process.getuid?.() ?? 0): Promise<ProbeResult> {
  const address = sessionBusAddress(env);
  if (!address) {
    return Promise.resolve({ ok: false, kind: 'unavailable', reason: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)' });
  }
  return new Promise<ProbeResult>((resolve) => {
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, kind: 'timeout', reason: `the D-Bus session bus did not answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const socket: Socket = 'path' in address ? connect({ path: address.path }) : connect({ host: address.host, port: address.port });
    let phase: 'auth' | 'messages' = 'auth';
    let buffer = Buffer.alloc(0);
    socket.on('error', (error) =>
      finish({ ok: false, kind: 'unavailable', reason: `cannot connect to the D-Bus session bus (${error.message})` }),
    );
    socket.on('close', () => finish({ ok: false, kind: 'unavailable', reason: 'the D-Bus session bus closed the connection' }));
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from([0]), Buffer.from(`AUTH EXTERNAL ${Buffer.from(String(uid)).toString('hex')}\r\n`)]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (phase === 'auth') {
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        const line = buffer.toString('ascii', 0, end);
        buffer = buffer.subarray(end + 2);
        if (!line.startsWith('OK')) {
          finish({ ok: false, kind: 'unavailable', reason: `the D-Bus session bus refused us (${line.slice(0, 60)})` });
          return;
        }
        phase = 'messages';
        socket.write(
          Buffer.concat([
            Buffer.from('BEGIN\r\n'),
            encodeCall({
              serial: 1,
              path: '/org/freedesktop/DBus',
              interface: 'org.freedesktop.DBus',
              member: 'Hello',
              destination: 'org.freedesktop.DBus',
            }),
            encodeCall({
              serial: 2,
              path: '/org/freedesktop/secrets',
              interface: 'org.freedesktop.DBus.Peer',
              member: 'Ping',
              destination: 'org.freedesktop.secrets',
            }),
          ]),
        );
      }
      for (;;) {
        const message = decodeMessage(buffer);
        if (!message) return;
        buffer = buffer.subarray(message.size);
        const { reply } = message;
        if (reply.replySerial !== 2) continue;
        if (reply.type === 2) finish({ ok: true });
        else if (reply.type === 3) {
          finish({ ok: false, kind: 'unavailable', reason: `no Secret Service on the session bus (${reply.errorName ?? 'error'})` });
        }
      }
    });
  });
}
