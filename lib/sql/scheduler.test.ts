import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { FairScheduler } from "./scheduler";

/** A virtual clock and tasks that finish when the test says so. */
function setup(overrides: Partial<ConstructorParameters<typeof FairScheduler<string>>[1]> = {}) {
  let clock = 0;
  const options = {
    slots: 3,
    reservedSlots: 1,
    perKey: 2,
    maxWaitMs: 2_000,
    maxQueued: 64,
    windowMs: 10_000,
    heavyMs: 1_000,
    taskBudgetMs: 5_000,
    now: () => clock,
    ...overrides,
  };
  const scheduler = new FairScheduler(
    Array.from({ length: options.slots }, (_, i) => `s${i + 1}`),
    options,
  );
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const submit = (key: string, id: string, signal?: AbortSignal) =>
    scheduler.run(key, signal, (slot, taskSignal) => {
      started.push(id);
      return new Promise<string>((resolve, reject) => {
        finishers.set(id, () => resolve(slot));
        taskSignal?.addEventListener("abort", () => reject(new Error("killed in the engine")), { once: true });
      });
    });
  const finish = async (id: string) => {
    finishers.get(id)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  const advance = (ms: number) => {
    clock += ms;
  };
  return { scheduler, submit, finish, started, advance };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const status = (error: unknown) => (error instanceof AppError ? error.code : String(error));

describe("FairScheduler", () => {
  it("runs a quiet key's query at once while three noisy keys saturate the shared slots", async () => {
    const { submit, finish, started, advance, scheduler } = setup({ maxWaitMs: 60_000 });
    const noisy = ["a", "b", "c"];
    const pending: Array<Promise<unknown>> = [];
    // Round 1: every key is light; each noisy key's first query starts.
    for (const key of noisy) pending.push(submit(key, `${key}1`));
    for (const key of noisy) pending.push(submit(key, `${key}2`).catch(status));
    await settle();
    expect(started).toEqual(["a1", "b1", "c1"]);
    advance(5_000);
    await finish("a1");
    await finish("b1");
    await finish("c1");
    // Now every noisy key is heavy: they share 2 slots, one stays reserved.
    expect(started.slice(3)).toHaveLength(2);
    expect(scheduler.snapshot()).toMatchObject({ running: 2, freeSlots: 1 });
    const quiet = submit("quiet", "q1");
    await settle();
    expect(started.at(-1)).toBe("q1");
    await finish("q1");
    await expect(quiet).resolves.toMatch(/^s[123]$/);
    // A noisy key's queue does not delay the quiet key's next first query either.
    const quiet2 = submit("quiet", "q2");
    await settle();
    expect(started.at(-1)).toBe("q2");
    await finish("q2");
    await quiet2;
    for (const id of ["a2", "b2", "c2"]) await finish(id);
    await Promise.all(pending);
  });

  it("stops a long query holding the short-query slot when a light key waits (cold start), answering it 503", async () => {
    const { submit, finish, started, advance } = setup();
    const first = ["a", "b", "c"].map((key) => submit(key, `${key}1`).catch((error: unknown) => error));
    await settle();
    expect(started).toEqual(["a1", "b1", "c1"]);
    advance(1_500);
    const quiet = submit("quiet", "q1");
    await settle();
    await settle();
    // The longest of the three (all started light) was stopped for the quiet key.
    expect(started.at(-1)).toBe("q1");
    const stopped = (await first[0]) as AppError;
    expect(stopped.code).toBe("service_unavailable");
    expect(stopped.details).toMatchObject({ retryAfter: 1, preempted: true });
    await finish("q1");
    await quiet;
    await finish("b1");
    await finish("c1");
    await Promise.all(first);
  });

  it("answers 429 past the per-key cap and 503 with Retry-After past the bounded wait", async () => {
    const { submit, advance, finish } = setup({ slots: 1, reservedSlots: 0, maxWaitMs: 50 });
    const first = submit("k", "k1");
    const second = submit("k", "k2").catch((error: unknown) => error);
    await settle();
    await expect(submit("k", "k3")).rejects.toMatchObject({ code: "rate_limited", details: { retryAfter: 1 } });
    const other = submit("other", "o1").catch((error: unknown) => error);
    advance(1_000);
    const waited = (await other) as AppError;
    expect(waited.code).toBe("service_unavailable");
    expect(waited.details.retryAfter).toBe(4);
    expect(((await second) as AppError).code).toBe("service_unavailable");
    await finish("k1");
    await first;
  });

  it("drops a waiting query whose client went away, before it ever runs", async () => {
    const { submit, finish, started, scheduler } = setup({ slots: 1, reservedSlots: 0 });
    const first = submit("k", "k1");
    const abort = new AbortController();
    const gone = submit("other", "o1", abort.signal).catch((error: unknown) => error);
    await settle();
    expect(scheduler.snapshot().waiting).toBe(1);
    abort.abort();
    expect(await gone).toMatchObject({ details: { clientClosed: true } });
    expect(scheduler.snapshot().waiting).toBe(0);
    await finish("k1");
    await first;
    expect(started).toEqual(["k1"]);
    // The key is free again at once.
    const again = submit("other", "o2");
    await settle();
    expect(started).toEqual(["k1", "o2"]);
    await finish("o2");
    await again;
  });
});
