import { describe, expect, it } from "vitest";
import { InFlightCap, withDeadline } from "./async";

describe("withDeadline", () => {
  it("resolves and rejects with the work when it settles in time", async () => {
    await expect(withDeadline(Promise.resolve(7), 1_000, () => new Error("late"))).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error("venue said no")), 1_000, () => new Error("late"))).rejects.toThrow("venue said no");
  });

  it("rejects with the timeout error when the work outlives the deadline", async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withDeadline(never, 20, () => new Error("timed out after 20 ms"))).rejects.toThrow("timed out after 20 ms");
  });

  it("rejects with the abort error when the signal aborts first", async () => {
    const controller = new AbortController();
    const never = new Promise<never>(() => undefined);
    const bounded = withDeadline(never, 10_000, () => new Error("late"), { signal: controller.signal, onAbort: () => new Error("client went away") });
    controller.abort();
    await expect(bounded).rejects.toThrow("client went away");
  });
});

describe("InFlightCap", () => {
  it("refuses the call past the limit per owner, frees a slot on release, and releases once", () => {
    const cap = new InFlightCap(2, (limit) => new Error(`at most ${limit}`));
    const first = cap.acquire("key-a");
    cap.acquire("key-a");
    expect(() => cap.acquire("key-a")).toThrow("at most 2");
    expect(() => cap.acquire("key-b")).not.toThrow();
    first();
    first();
    expect(cap.count("key-a")).toBe(1);
    expect(() => cap.acquire("key-a")).not.toThrow();
    expect(() => cap.acquire("key-a")).toThrow("at most 2");
  });
});
