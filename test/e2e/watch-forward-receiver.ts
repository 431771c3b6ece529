// A webhook receiver for the watch --forward-to tests: an HTTP server (HTTPS with `tls`) on a loopback port that
// verifies every request with the `standardwebhooks` library (signature with each secret, a fresh
// timestamp) and answers as the test's script says: a status, a hang (no answer until released), or
// the test's own callback (e.g. kill -9 of the sender on receipt).
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: number;
  signatures: string[];
  body: string;
  headers: IncomingMessage['headers'];
  /** The status it was answered with; 'hang' when left without one. */
  answer: number | 'hang';
}

/** What to answer to request number n (from 0): a status, or 'hang' (no answer until close). */
export type Script = (request: {
  n: number;
  id: string;
  body: string;
}) => number | 'hang' | { status: number; headers: Record<string, string> };

export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  /** Requests answered 2xx: delivered. */
  delivered(): Received[];
  /** Change what it answers from now on. */
  script: Script;
  /** Secrets to verify with (set once the test knows them: the CLI may make the secret file). */
  secrets: string[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startReceiver(
  options: { port?: number; script?: Script; secrets?: string[]; tls?: { key: string; cert: string } } = {},
): Promise<Receiver> {
  const hanging: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    delivered: () => receiver.requests.filter((one) => typeof one.answer === 'number' && one.answer >= 200 && one.answer < 300),
    script: options.script ?? (() => 200),
    secrets: options.secrets ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const handle: RequestListener = (request, response) => {
    void readBody(request).then((body) => {
      const headers = request.headers;
      const id = String(headers['webhook-id'] ?? '');
      const decided = receiver.script({ n: receiver.requests.length, id, body });
      const status = typeof decided === 'object' ? decided.status : decided;
      receiver.requests.push({
        id,
        timestamp: Number(headers['webhook-timestamp']),
        signatures: String(headers['webhook-signature'] ?? '').split(' '),
        body,
        headers,
        answer: status,
      });
      if (status === 'hang') {
        hanging.push(response);
        return;
      }
      response.writeHead(status, typeof decided === 'object' ? decided.headers : {});
      response.end('ok');
    });
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${receiver.port}/hooks/appraisal`;
  return receiver;
}

/**
 * Verify one request with `standardwebhooks` and one secret (its signature among those sent, and a
 * timestamp within the library's five minutes): undefined when valid, else the library's message.
 */
export function verify(request: Received, secret: string): string | undefined {
  try {
    new Webhook(secret).verify(request.body, {
      'webhook-id': request.id,
      'webhook-timestamp': String(request.timestamp),
      'webhook-signature': request.signatures.join(' '),
    });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A port nothing listens on (for now): listened on, then closed. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
