import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.VENUE_REDIRECT_URL = "http://127.0.0.1:9";
});

const { VenueWatchers } = await import("./venue-watchers");

describe("venue watchers in offline mode (VENUE_REDIRECT_URL)", () => {
  it("never open pmxt-core's own websocket of a venue: the watch fails at once with 503 EXCHANGE_NOT_AVAILABLE saying why", async () => {
    const watchers = new VenueWatchers();
    const failed = new Promise<unknown>((resolve) => {
      watchers.acquire(
        { owner: "key-1", exchange: "polymarket", method: "watchOrderBook", args: ["123"], credentials: undefined },
        { data: () => resolve(new Error("no data was expected")), failed: resolve },
      );
    });
    const error = (await failed) as { code?: string; status?: number; message: string };
    expect(error.code).toBe("EXCHANGE_NOT_AVAILABLE");
    expect(error.status).toBe(503);
    expect(error.message).toContain("offline mode (VENUE_REDIRECT_URL)");
    await vi.waitFor(() => expect(watchers.size).toBe(0));
  });
});
