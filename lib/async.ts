/**
 * Small shared pieces of running work: a deadline around a promise. Used by the pass-through, the
 * catalog poller, the health check and the SQL surface; pure (no store, no config). (Caps per key
 * live in lib/limits, shared by every instance.)
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
