// What stops the watch at once instead of being retried or dead-lettered: the receiver saying it is
// gone (410), and a TLS failure (a certificate not trusted, expired or for another name; no TLS at
// that address), which no retry heals while the configuration stays as it is — retried, it held a
// --once run for the whole --retry-for (24h by default), saying nothing. Either is exit 24 (an event
// could not be delivered, core/exit-codes.ts), like a dead letter; exit 3 is the service's network
// failure, not the receiver's. Nothing is dead-lettered: the event and every one after it wait in
// the outbox for the next run.
import { UndeliveredEventsError } from '../../../core/errors.js';
import type { TlsProblem } from '../../../core/http/network-errors.js';
import type { OutboundAnswer } from '../../../core/http/outbound.js';
import { shownFailure, shownTarget } from './target.js';

/** The hint's next step for each kind of TLS failure (core/http/network-errors.ts tells them apart). */
const TLS_FIX: Readonly<Record<TlsProblem, string>> = {
  untrusted:
    "trust the CA that signed the receiver's certificate with --forward-ca-file PATH, or give the receiver a certificate this machine trusts",
  name: "use the host name the receiver's certificate was issued for in --forward-to, or fix the certificate (--forward-ca-file cannot fix a name mismatch)",
  validity: "the receiver's certificate must be renewed (--forward-ca-file cannot help); also check this machine's clock",
  handshake: 'check that the receiver speaks HTTPS at that address (a plain-HTTP receiver on this machine takes an http:// URL)',
};

/** The error that stops the watch for this answer (a 410, or a TLS failure: schedule.ts's verdicts). */
export function stopFor(answer: OutboundAnswer, url: URL, entryId: string, outboxPath: string): UndeliveredEventsError {
  const waiting = `${entryId} and every event after it wait in ${outboxPath}`;
  if (answer.kind === 'answer') {
    return new UndeliveredEventsError(
      `the webhook receiver ${shownTarget(url)} answered 410 Gone (it takes no more events): the watch stopped`,
      { hint: `${waiting}: run the same watch again once the receiver is back, or point --forward-to elsewhere` },
    );
  }
  const reason = shownFailure(answer.message, url);
  return new UndeliveredEventsError(`cannot reach the webhook receiver ${shownTarget(url)} securely: ${reason}; the watch stopped`, {
    hint: `${TLS_FIX[answer.tls ?? 'handshake']}; ${waiting} for the next run`,
  });
}
