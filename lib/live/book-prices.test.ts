import { afterEach, describe, expect, it } from "vitest";
import { bookPrices, clearBookPriceCache, type VenueBooks } from "./book-prices";

// The books' budget is the venue's answer time: a client built at first use (its module loaded,
// lib/venues/pmxt.ts) is built before the clock starts, however long that takes.

/** Blocks the event loop as a synchronous `require` of a large module does. */
function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs
  }
}

const row = (id: string, venue: string) => ({ id, venue, outcomes: [{ outcomeId: `${id}-yes` }] });

function venuesBuiltSlowly(buildMs: number, built: Set<string>): VenueBooks {
  return {
    recorded: () => false,
    needsCredentials: () => false,
    ready: async (venue) => {
      if (venue === "unbuildable") throw new Error("no such venue");
      if (!built.has(venue)) blockFor(buildMs);
      built.add(venue);
    },
    fetch: async (venue) => {
      if (!built.has(venue)) blockFor(buildMs);
      built.add(venue);
      if (venue === "unbuildable") throw new Error("no such venue");
      return { bids: [{ price: 0.4 }], asks: [{ price: 0.45 }] };
    },
  };
}

afterEach(() => clearBookPriceCache());

describe("bookPrices: the budget starts once the venues' clients are built", () => {
  it("answers every venue's book although building the clients took longer than the whole budget", async () => {
    const built = new Set<string>();
    // The budget is at most 2 s (book-prices.ts deadlineMs): each client takes 2.2 s to build.
    const prices = await bookPrices(venuesBuiltSlowly(2_200, built), [row("a", "first"), row("b", "second")]);
    expect(prices.get("a")).toEqual({ bestBid: 0.4, bestAsk: 0.45, priceSource: "venue" });
    expect(prices.get("b")).toEqual({ bestBid: 0.4, bestAsk: 0.45, priceSource: "venue" });
    expect([...built].sort()).toEqual(["first", "second"]);
  }, 20_000);

  it("a venue that cannot be built is that venue's error, not the request's", async () => {
    const prices = await bookPrices(venuesBuiltSlowly(0, new Set()), [row("a", "first"), row("b", "unbuildable")]);
    expect(prices.get("a")?.priceSource).toBe("venue");
    expect(prices.get("b")).toEqual({ bestBid: null, bestAsk: null, priceSource: "venue_error" });
  });
});
