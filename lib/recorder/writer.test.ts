import type { ClickHouseClient } from "@clickhouse/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TickRow } from "./rows";
import { RecorderStats } from "./stats";
import { MAX_UNFLUSHED_MS, TickWriter } from "./writer";

/** A client that records inserts and never touches an engine. */
function fakeClient(): { client: ClickHouseClient; inserts: number[] } {
  const inserts: number[] = [];
  const client = {
    insert: async () => {
      inserts.push(Date.now());
    },
  } as unknown as ClickHouseClient;
  return { client, inserts };
}

const row = (i: number): TickRow => ({ timestampMs: 1_781_352_000_000 + i, receivedMs: 1_781_352_000_000 + i, market: "0xabc", eventType: "book", data: `{"i":${i}}` });

afterEach(() => {
  vi.useRealTimers();
});

describe("TickWriter's loss bound on kill -9", () => {
  it("hands a buffered row to the engine within MAX_UNFLUSHED_MS of its arrival, with the default options", async () => {
    vi.useFakeTimers();
    const { client, inserts } = fakeClient();
    const writer = new TickWriter(client, new RecorderStats());
    expect(writer.options.flushIntervalMs).toBe(MAX_UNFLUSHED_MS);
    writer.push([row(1)]);
    await vi.advanceTimersByTimeAsync(MAX_UNFLUSHED_MS - 1);
    expect(inserts).toHaveLength(0);
    expect(writer.buffered).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(inserts).toHaveLength(1);
    expect(writer.buffered).toBe(0);
    // A later row gets its own bound, counted from its own arrival.
    await vi.advanceTimersByTimeAsync(5_000);
    writer.push([row(2)]);
    await vi.advanceTimersByTimeAsync(MAX_UNFLUSHED_MS);
    expect(inserts).toHaveLength(2);
  });
});
