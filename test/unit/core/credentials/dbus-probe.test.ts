import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { decodeMessage, encodeCall, probeSecretService, sessionBusAddress } from '../../../../src/core/credentials/dbus-probe.js';
import { tempDir } from '../../../helpers/temp.js';

/** A reply (METHOD_RETURN or ERROR) to `replySerial`, as a bus would send it. */
function reply(type: 2 | 3, replySerial: number, errorName?: string): Buffer {
  const parts: number[] = [];
  const u32 = (v: number) => parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  const pad = (n: number) => {
    while (parts.length % n) parts.push(0);
  };
  parts.push(0x6c, type, 0, 1);
  u32(0);
  u32(99);
  const lengthAt = parts.length;
  u32(0);
  parts.push(5, 1, 0x75, 0);
  u32(replySerial);
  if (errorName) {
    pad(8);
    parts.push(4, 1, 0x73, 0);
    u32(errorName.length);
    parts.push(...Buffer.from(errorName), 0);
  }
  const fieldsLength = parts.length - 16;
  parts.splice(lengthAt, 4, fieldsLength & 0xff, (fieldsLength >>> 8) & 0xff, 0, 0);
  pad(8);
  return Buffer.from(parts);
}

type Behaviour = 'answer' | 'error' | 'silent' | 'reject';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function fakeBus(behaviour: Behaviour): Promise<{ path: string; seen: string[] }> {
  const path = join(tempDir('appraisal-dbus-'), 'bus');
  const seen: string[] = [];
  server = createServer((socket: Socket) => {
    let authed = false;
    let buffer = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      if (behaviour === 'silent') return;
      buffer = Buffer.concat([buffer, chunk]);
      if (!authed) {
        const end = buffer.indexOf('\r\n');
        if (end < 0) return;
        seen.push(buffer.toString('latin1', 0, end));
        buffer = buffer.subarray(end + 2);
        authed = true;
        socket.write(behaviour === 'reject' ? 'REJECTED EXTERNAL\r\n' : 'OK 0123456789abcdef\r\n');
        return;
      }
      if (buffer.toString('latin1').startsWith('BEGIN\r\n')) buffer = buffer.subarray(7);
      for (;;) {
        const message = decodeMessage(buffer);
        if (!message) return;
        buffer = buffer.subarray(message.size);
        seen.push(`call ${message.reply.type}`);
      }
    });
    if (behaviour === 'answer' || behaviour === 'error') {
      // Answer once both calls (Hello, Ping) are in.
      const timer = setInterval(() => {
        if (seen.filter((s) => s.startsWith('call')).length >= 2) {
          clearInterval(timer);
          socket.write(reply(2, 1));
          socket.write(behaviour === 'answer' ? reply(2, 2) : reply(3, 2, 'org.freedesktop.DBus.Error.ServiceUnknown'));
        }
      }, 5);
      socket.on('close', () => clearInterval(timer));
    }
  });
  await new Promise<void>((resolve) => server!.listen(path, resolve));
  return { path, seen };
}

describe('sessionBusAddress', () => {
  it('parses unix paths, abstract sockets and tcp; skips what it cannot use', () => {
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' })).toEqual({ path: '/run/user/1000/bus' });
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'unix:abstract=/tmp/dbus-x,guid=1' })).toEqual({ path: '\0/tmp/dbus-x' });
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'autolaunch:;tcp:host=127.0.0.1,port=1234' })).toEqual({
      host: '127.0.0.1',
      port: 1234,
    });
    expect(sessionBusAddress({ DBUS_SESSION_BUS_ADDRESS: 'launchd:env=X' })).toBeUndefined();
    expect(sessionBusAddress({ XDG_RUNTIME_DIR: '/nonexistent' })).toBeUndefined();
  });
});

describe('D-Bus messages', () => {
  it('encodes a call that decodes to its own size', () => {
    const call = encodeCall({
      serial: 2,
      path: '/org/freedesktop/secrets',
      interface: 'org.freedesktop.DBus.Peer',
      member: 'Ping',
      destination: 'org.freedesktop.secrets',
    });
    expect(call.length % 8).toBe(0);
    expect(decodeMessage(call)).toMatchObject({ size: call.length, reply: { type: 1 } });
    expect(decodeMessage(call.subarray(0, call.length - 1))).toBeUndefined();
  });

  it('reads the reply serial and error name of a reply', () => {
    expect(decodeMessage(reply(3, 2, 'org.freedesktop.DBus.Error.ServiceUnknown'))?.reply).toEqual({
      type: 3,
      replySerial: 2,
      errorName: 'org.freedesktop.DBus.Error.ServiceUnknown',
    });
  });
});

describe('probeSecretService', () => {
  it('is ok when the Secret Service answers a ping', async () => {
    const { path, seen } = await fakeBus('answer');
    expect(await probeSecretService({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, 2000, 1000)).toEqual({ ok: true });
    expect(seen[0]).toBe(`\0AUTH EXTERNAL ${Buffer.from('1000').toString('hex')}`);
  });

  it('reports a bus without a Secret Service', async () => {
    const { path } = await fakeBus('error');
    expect(await probeSecretService({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, 2000)).toEqual({
      ok: false,
      kind: 'unavailable',
      reason: 'no Secret Service on the session bus (org.freedesktop.DBus.Error.ServiceUnknown)',
    });
  });

  it('times out on a bus that never answers', async () => {
    const { path } = await fakeBus('silent');
    const started = Date.now();
    expect(await probeSecretService({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, 200)).toMatchObject({ ok: false, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports a refused handshake, a missing socket, and no bus at all', async () => {
    const { path } = await fakeBus('reject');
    expect(await probeSecretService({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` }, 2000)).toMatchObject({
      ok: false,
      kind: 'unavailable',
    });
    expect(await probeSecretService({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' }, 2000)).toMatchObject({
      ok: false,
      kind: 'unavailable',
      reason: expect.stringMatching(/cannot connect/),
    });
    expect(await probeSecretService({}, 2000)).toMatchObject({ ok: false, kind: 'unavailable' });
  });
});
