import { describe, expect, it, vi } from "vitest";
import { processGlobals } from "@/lib/process-globals.mjs";

describe("the process's closed-day cache", () => {
  it("is one for the process: a second copy of the module (another route's bundle) gets the same cache", async () => {
    const first = await import("./day-cache");
    vi.resetModules();
    const second = await import("./day-cache");
    expect(second.SpreadDayCache).not.toBe(first.SpreadDayCache);
    expect(second.spreadDays).toBe(first.spreadDays);
    expect(processGlobals<{ __brierSpreadDays?: unknown }>().__brierSpreadDays).toBe(first.spreadDays);
  });
});
