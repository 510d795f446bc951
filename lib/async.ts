/**
 * Small shared pieces of running work: a deadline around a promise, and a cap on the calls one
 * owner (an API key, an account) may have in flight. Used by the pass-through, the catalog
 * poller, the health check and the SQL surface; pure (no store, no config).
 */

/**
 * `work`'s outcome, unless `ms` pass first (rejects with `onTimeout()`) or `signal` aborts first
 * (rejects with `onAbort()`). The timer and the listener are always removed. `work` itself keeps
 * running (a promise cannot be cancelled): hand the signal to it where it can stop.
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  abort?: { signal: AbortSignal | undefined; onAbort: () => Error },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    const signal = abort?.signal;
    const onAbort = () => reject(abort?.onAbort());
    signal?.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    });
  });
}

/**
 * At most `limit` calls in flight per owner; one more is refused at once with `refuse(limit)`
 * (a 429 domain error, typically) rather than queued. In-process: each web instance caps its own.
 */
export class InFlightCap {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly refuse: (limit: number) => Error,
  ) {}

  /** Takes a slot for `owner`, or throws; the returned release is idempotent. */
  acquire(owner: string): () => void {
    const current = this.inFlight.get(owner) ?? 0;
    if (current >= this.limit) throw this.refuse(this.limit);
    this.inFlight.set(owner, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(owner) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(owner);
      else this.inFlight.set(owner, left);
    };
  }

  /** Calls `owner` has in flight now. */
  count(owner: string): number {
    return this.inFlight.get(owner) ?? 0;
  }
}
