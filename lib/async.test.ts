import { describe, expect, it } from "vitest";
import { withDeadline } from "./async";

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
