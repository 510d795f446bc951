import { AppError, ClientClosedRequestError, ServiceUnavailableError } from "@/lib/errors";
import type { KeyLimits } from "@/lib/limits/key-limits";

/**
 * Fair admission of user SQL to a fixed set of engine slots (POST /v0/sql, docs/ticks.md "Fairness").
 *
 * - Each slot runs one query at a time (on chDB a slot is its own reader connection; a connection
 *   must never interleave two queries).
 * - A key may have `perKey` queries running or waiting; one more is answered 429 at once. With
 *   `keyLimits` (PostgreSQL: several instances) that count is the key's on every instance.
 * - A key is *heavy* while one of its queries ran (or is running) `heavyMs` or longer within the
 *   last `windowMs`. Heavy keys share `slots - reservedSlots` slots; the reserved ones are for
 *   everyone else, so a key with small queries is not queued behind keys running long ones. (A
 *   key can hold a reserved slot at most `heavyMs` at a time before it counts as heavy; the window
 *   is long enough that a heavy key kept waiting by other heavy keys does not turn light again.) Among waiters, light keys go first, then the key with the fewest running queries,
 *   then the key served longest ago, then arrival order.
 * - Nobody waits longer than `maxWaitMs`: past it (or with `maxQueued` already waiting) the answer
 *   is 503 with Retry-After, instead of holding the client past its time budget.
 * - A waiter whose client went away (its AbortSignal) leaves the queue; a running task gets the
 *   same signal and cancels its engine query.
 */

export interface SchedulerOptions {
  slots: number;
  reservedSlots: number;
  perKey: number;
  maxWaitMs: number;
  maxQueued: number;
  windowMs: number;
  heavyMs: number;
  /** Longest a task runs (the engine's time limit): bounds the Retry-After of a 503. */
  taskBudgetMs: number;
  /** Where the per-key count is kept when instances share it (lib/limits); default: this scheduler only. */
  keyLimits?: KeyLimits;
  now?: () => number;
}

interface Running {
  started: number;
  /** The key was heavy when the task started: it counts against the shared slots. */
  heavy: boolean;
  preempt: AbortController;
}

interface Grant<S> {
  slot: S;
  started: number;
  heavy: boolean;
}

interface Waiter<S> {
  key: string;
  arrived: number;
  start: (grant: Grant<S>) => void;
  fail: (error: Error) => void;
}

interface KeyState {
  running: number;
  waiting: number;
  lastServed: number;
  /** Long runs (>= heavyMs) that ended within the window: [end time, engine ms]. */
  history: Array<[number, number]>;
  /** Start times of running tasks. */
  starts: number[];
}

export class FairScheduler<S> {
  private readonly free: S[];
  private readonly queue: Array<Waiter<S>> = [];
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;
  private heavyRunning = 0;
  private readonly running = new Set<Running>();
  private preemptTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    slots: readonly S[],
    private readonly options: SchedulerOptions,
  ) {
    this.free = [...slots];
    this.now = options.now ?? (() => performance.now());
  }

  /** Runs `task` on a slot when the key's turn comes; see the class comment for the rules. */
  async run<T>(key: string, signal: AbortSignal | undefined, task: (slot: S, signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    if (signal?.aborted) throw new ClientClosedRequestError();
    const shared = this.options.keyLimits;
    if (shared === undefined) return this.runHeld(key, signal, task);
    const local = this.keys.get(key);
    if (local !== undefined && local.running + local.waiting >= this.options.perKey) throw this.overKey();
    const taken = await shared.take(`sql:${key}`, 1, this.options.perKey);
    if (!taken.taken) throw this.overKey();
    try {
      if (signal?.aborted) throw new ClientClosedRequestError();
      return await this.runHeld(key, signal, task);
    } finally {
      void taken.lease.release();
    }
  }

  private overKey(): AppError {
    return new AppError("rate_limited", `At most ${this.options.perKey} SQL queries may run or wait at once per key; retry when one finishes.`, {
      retryAfter: 1,
    });
  }

  private async runHeld<T>(key: string, signal: AbortSignal | undefined, task: (slot: S, signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const state = this.state(key);
    if (state.running + state.waiting >= this.options.perKey) throw this.overKey();
    if (this.queue.length >= this.options.maxQueued) throw this.busy();
    const { slot, started, heavy } = await this.acquire(key, state, signal);
    const running: Running = { started, heavy, preempt: new AbortController() };
    this.running.add(running);
    const taskSignal = signal === undefined ? running.preempt.signal : AbortSignal.any([signal, running.preempt.signal]);
    try {
      return await task(slot, taskSignal);
    } catch (error) {
      if (running.preempt.signal.aborted && !signal?.aborted) {
        throw new ServiceUnavailableError("The query outgrew the slot kept for short queries and was stopped for one; retry (it will run in a shared slot).", {
          retryAfter: 1,
          preempted: true,
        });
      }
      throw error;
    } finally {
      this.running.delete(running);
      const ended = this.now();
      state.running -= 1;
      state.starts.splice(state.starts.indexOf(started), 1);
      state.history.push([ended, ended - started]);
      if (heavy) this.heavyRunning -= 1;
      this.free.push(slot);
      this.dispatch();
      this.forget(key, state);
    }
  }

  /** Queries running and waiting, for status and tests. */
  snapshot(): { running: number; waiting: number; freeSlots: number } {
    let running = 0;
    for (const state of this.keys.values()) running += state.running;
    return { running, waiting: this.queue.length, freeSlots: this.free.length };
  }

  private acquire(key: string, state: KeyState, signal: AbortSignal | undefined): Promise<Grant<S>> {
    return new Promise<Grant<S>>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        state.waiting -= 1;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.watch();
      };
      const onAbort = () => {
        leave();
        this.forget(key, state);
        reject(new ClientClosedRequestError());
      };
      const waiter: Waiter<S> = {
        key,
        arrived: this.now(),
        start: (grant) => {
          leave();
          resolve(grant);
        },
        fail: (error) => {
          leave();
          this.forget(key, state);
          reject(error);
        },
      };
      state.waiting += 1;
      this.queue.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.dispatch();
      if (this.queue.includes(waiter)) timer = setTimeout(() => waiter.fail(this.busy()), this.options.maxWaitMs);
    });
  }

  /**
   * A task that started light holds a slot the shared ones could not give it; once it has run
   * `heavyMs` it is a long query in a short-query slot. If a light key is waiting for a slot, the
   * longest such task is stopped (its client gets 503 with Retry-After and runs next time in a
   * shared slot), so a light key waits at most about `heavyMs` even right after heavy keys arrive.
   */
  private preemptIfNeeded(): void {
    const now = this.now();
    if (this.free.length > 0 || !this.queue.some((waiter) => !this.isHeavy(this.state(waiter.key), now))) return;
    let longest: Running | undefined;
    for (const task of this.running) {
      if (task.heavy || task.preempt.signal.aborted || now - task.started < this.options.heavyMs) continue;
      if (longest === undefined || task.started < longest.started) longest = task;
    }
    longest?.preempt.abort();
  }

  /** Checks for preemption while anyone waits. */
  private watch(): void {
    if (this.queue.length === 0) {
      if (this.preemptTimer !== undefined) clearInterval(this.preemptTimer);
      this.preemptTimer = undefined;
    } else if (this.preemptTimer === undefined) {
      this.preemptTimer = setInterval(() => this.preemptIfNeeded(), 100);
      this.preemptTimer.unref?.();
    }
  }

  /** Hands free slots to the best eligible waiters. */
  private dispatch(): void {
    try {
      this.dispatchFree();
    } finally {
      this.preemptIfNeeded();
      this.watch();
    }
  }

  private dispatchFree(): void {
    while (this.free.length > 0 && this.queue.length > 0) {
      const now = this.now();
      const heavySlots = this.options.slots - this.options.reservedSlots;
      let best: { waiter: Waiter<S>; rank: [number, number, number, number] } | undefined;
      for (const waiter of this.queue) {
        const state = this.state(waiter.key);
        const heavy = this.isHeavy(state, now);
        if (heavy && this.heavyRunning >= heavySlots) continue;
        const rank: [number, number, number, number] = [heavy ? 1 : 0, state.running, state.lastServed, waiter.arrived];
        if (best === undefined || compare(rank, best.rank) < 0) best = { waiter, rank };
      }
      if (best === undefined) return;
      const slot = this.free.pop();
      if (slot === undefined) return;
      // Book the slot now, synchronously, so the next pick already sees it.
      const state = this.state(best.waiter.key);
      const heavy = best.rank[0] === 1;
      state.running += 1;
      state.starts.push(now);
      state.lastServed = now;
      if (heavy) this.heavyRunning += 1;
      best.waiter.start({ slot, started: now, heavy });
    }
  }

  private isHeavy(state: KeyState, now: number): boolean {
    const since = now - this.options.windowMs;
    state.history = state.history.filter(([end, ms]) => end >= since && ms >= this.options.heavyMs);
    return state.history.length > 0 || state.starts.some((start) => now - start >= this.options.heavyMs);
  }

  private busy(): ServiceUnavailableError {
    // The soonest a slot frees: the oldest running query ends within the engine's time limit.
    const now = this.now();
    let oldest = now;
    for (const state of this.keys.values()) for (const start of state.starts) oldest = Math.min(oldest, start);
    const seconds = Math.max(1, Math.ceil((this.options.taskBudgetMs - (now - oldest)) / 1000));
    return new ServiceUnavailableError(`Every SQL slot is busy; retry in ${seconds} s.`, { retryAfter: seconds });
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (state === undefined) {
      for (const [other, otherState] of this.keys) this.forget(other, otherState);
      state = { running: 0, waiting: 0, lastServed: -Infinity, history: [], starts: [] };
      this.keys.set(key, state);
    }
    return state;
  }

  private forget(key: string, state: KeyState): void {
    this.isHeavy(state, this.now()); // prunes the history to the window
    if (state.running === 0 && state.waiting === 0 && state.history.length === 0) this.keys.delete(key);
  }
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
