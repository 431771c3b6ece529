// A leased key kept alive for as long as the session lives: each lease expires after --ttl (so a
// killed server leaves a key that dies within the hour by default), and a new one replaces it before
// then — a quarter of its life ahead, at most 10 minutes. Calls already running on the old key finish
// first (each is bounded by its deadline); then the old key is revoked. A renewal that fails is tried
// again every minute, and said once each time, while the current key still works.
// Pure: minting, revoking, messages and timers are handed in (mcp/lease.ts; a test drives the clock).

/** The parts of a lease this needs. */
export interface KeptLease {
  secret: string;
  prefix: string;
}

export interface KeeperDeps<L extends KeptLease> {
  ttlMs: number;
  /** How long calls that started on a replaced key may still use it. */
  graceMs: number;
  mint(): Promise<L>;
  /** Revokes, and says so (or says why not); never throws. */
  revoke(lease: L): Promise<void>;
  notice(text: string): void;
  warn(text: string): void;
  /** Runs `run` after `ms`; the function returned cancels it. */
  later(ms: number, run: () => void): () => void;
}

export interface KeptKey {
  /** The secret the next call uses. */
  secret(): string;
  prefix(): string;
  /** Stops renewing and revokes every key of the session now. */
  end(): Promise<void>;
}

export const RETRY_MS = 60_000;

/** How long before its expiry a lease is replaced. */
export function renewalLead(ttlMs: number): number {
  return Math.min(ttlMs / 4, 10 * 60_000);
}

export async function keepLease<L extends KeptLease>(deps: KeeperDeps<L>): Promise<KeptKey> {
  let current = await deps.mint();
  let ended = false;
  let cancelRenewal: () => void = () => {};
  /** Replaced keys waiting for their calls to finish, with the timer that revokes them. */
  const retiring = new Map<L, () => void>();

  const retire = (lease: L) => {
    retiring.set(
      lease,
      deps.later(deps.graceMs, () => {
        retiring.delete(lease);
        void deps.revoke(lease);
      }),
    );
  };
  const schedule = (ms: number) => {
    cancelRenewal = deps.later(ms, () => void renew());
  };
  const renew = async () => {
    let next: L;
    try {
      next = await deps.mint();
    } catch (error) {
      if (ended) return;
      deps.warn(`could not renew leased key ${current.prefix} (${(error as Error).message}); trying again in a minute`);
      schedule(RETRY_MS);
      return;
    }
    if (ended) return deps.revoke(next);
    const old = current;
    current = next;
    deps.notice(`leased key ${next.prefix} replaces ${old.prefix}, which is revoked once the calls using it end`);
    retire(old);
    schedule(deps.ttlMs - renewalLead(deps.ttlMs));
  };
  schedule(deps.ttlMs - renewalLead(deps.ttlMs));

  return {
    secret: () => current.secret,
    prefix: () => current.prefix,
    async end() {
      ended = true;
      cancelRenewal();
      const all = [...retiring.keys(), current];
      for (const cancel of retiring.values()) cancel();
      retiring.clear();
      await Promise.all(all.map((lease) => deps.revoke(lease)));
    },
  };
}
