import "server-only";
import type { MockExchange } from "pmxt-core/dist/exchanges/mock";
import { pmxtExchangeModule } from "./pmxt";

type OrderBook = Awaited<ReturnType<MockExchange["fetchOrderBook"]>>;

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const clamp = (value: number) => Math.min(0.999, Math.max(0.001, value));

/**
 * pmxt-core's MockExchange, with one change: its order book is centred on the outcome's own
 * listed price. The stock mock draws a book mid from the outcome id alone, so the offline demo's
 * market page showed a catalog price of 81¢ beside a live book at 22¢. The levels, sizes and
 * spread are the mock's own, shifted together; an unknown id gets the stock book.
 */
function catalogConsistentMockClass(Base: typeof MockExchange) {
  return class CatalogConsistentMockExchange extends Base {
    private prices: Promise<Map<string, number>> | undefined;

    private outcomePrices(): Promise<Map<string, number>> {
      this.prices ??= this.fetchMarkets().then(
        (markets) => new Map(markets.flatMap((market) => market.outcomes.map((outcome) => [outcome.outcomeId, outcome.price] as const))),
      );
      return this.prices;
    }

    override async fetchOrderBook(outcomeId: string): Promise<OrderBook> {
      const [book, prices] = await Promise.all([super.fetchOrderBook(outcomeId), this.outcomePrices()]);
      const price = prices.get(outcomeId);
      const bestBid = book.bids[0]?.price;
      const bestAsk = book.asks[0]?.price;
      if (price === undefined || bestBid === undefined || bestAsk === undefined) return book;
      const shift = price - (bestBid + bestAsk) / 2;
      const move = (levels: OrderBook["bids"]) => levels.map((level) => ({ ...level, price: round3(clamp(level.price + shift)) }));
      return { ...book, bids: move(book.bids), asks: move(book.asks) };
    }
  };
}

let mockClass: ReturnType<typeof catalogConsistentMockClass> | undefined;

/** A new instance of the mock venue above; pmxt-core's mock module is loaded at the first one (lib/venues/pmxt.ts). */
export function createCatalogConsistentMock(): MockExchange {
  mockClass ??= catalogConsistentMockClass(pmxtExchangeModule("mock").MockExchange);
  return new mockClass();
}
