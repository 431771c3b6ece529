// Start a download: the GET is retried like any safe request until the body starts; from then on
// the caller streams the body, and a failure part-way reaches it as a NetworkError (or
// InterruptedError) rather than a raw socket error.
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import type { DownloadResponse } from '../api-client.js';
import { BodyReadError } from './network-errors.js';
import { contentLengthOf } from './response-body.js';
import type { Transport } from './transport.js';

/**
 * @param open bodies handed out and not yet closed: the client destroys them on close(), since
 *   closing the connections waits for every body in flight.
 */
export function startDownload(
  transport: Transport,
  path: string,
  signal: AbortSignal | undefined,
  open: Set<Readable>,
): Promise<DownloadResponse> {
  return transport.perform(
    { method: 'GET', path, auth: true, retry: true, signal, timeout: 'idle', accept: '*/*' },
    async (response, { headers, scope, site }) => {
      const expected = contentLengthOf(headers);
      let received = 0;
      const body = new Transform({
        transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
          received += chunk.length;
          callback(null, chunk);
        },
      });
      // The attempt's abort wiring (Ctrl-C, the caller's signal) must outlive perform().
      scope.keep();
      const source = response.body;
      source.on('error', (error) => body.destroy(scope.classify(new BodyReadError(received, expected, error), site).error));
      // A failure before the caller reads (Ctrl-C while it opens its temp file) would otherwise be an
      // unhandled 'error' event, a crash: the stream keeps the error and hands it to its reader.
      body.on('error', () => {});
      open.add(body);
      body.on('close', () => {
        open.delete(body);
        if (!source.destroyed) source.destroy();
        scope.dispose();
      });
      source.pipe(body);
      return { body, contentLength: expected, contentType: headers['content-type'] };
    },
  );
}
