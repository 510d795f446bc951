import { MockExchange } from "pmxt-core/dist/exchanges/mock";
import { describe, expect, it } from "vitest";
import { createCatalogConsistentMock } from "./mock";

describe("the mock venue's book sits at the outcome's listed price", () => {
  it("centres every outcome's book on its price, keeping the mock's levels and sizes", async () => {
    const mock = createCatalogConsistentMock();
    const stock = new MockExchange();
    const markets = await mock.fetchMarkets({ limit: 12 });
    expect(markets.length).toBe(12);
    for (const outcome of markets.flatMap((m) => m.outcomes)) {
      const book = await mock.fetchOrderBook(outcome.outcomeId);
      const original = await stock.fetchOrderBook(outcome.outcomeId);
      const bid = book.bids[0]?.price ?? Number.NaN;
      const ask = book.asks[0]?.price ?? Number.NaN;
      expect(Math.abs((bid + ask) / 2 - outcome.price)).toBeLessThan(0.01);
      expect(bid).toBeLessThanOrEqual(ask);
      expect(book.bids.map((l) => l.size)).toEqual(original.bids.map((l) => l.size));
      expect(book.bids.map((l) => l.price)).toEqual([...book.bids.map((l) => l.price)].sort((a, b) => b - a));
      for (const level of [...book.bids, ...book.asks]) {
        expect(level.price).toBeGreaterThan(0);
        expect(level.price).toBeLessThan(1);
      }
    }
  });

  it("answers an unknown id with the stock book", async () => {
    const book = await createCatalogConsistentMock().fetchOrderBook("not-a-mock-outcome");
    expect(book).toMatchObject({ bids: (await new MockExchange().fetchOrderBook("not-a-mock-outcome")).bids });
  });
});
