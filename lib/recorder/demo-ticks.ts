import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { markets } from "@/lib/db/schema";
import { normalizeFrame } from "./polymarket/normalize";
import type { TickRow } from "./rows";
import { insertTickRows } from "./writer";

/**
 * SYNTHETIC order-book history for offline demos (docs/ticks.md): a random walk of the best
 * bid/ask per market, price changes mirrored on the YES and NO tokens, periodic book snapshots and
 * trades, all with now-relative timestamps. The frames are built in the venue's wire shape and go
 * through the recorder's own normalizer, so the rows look exactly like recorded ones. Never run by
 * the service itself; `admin demo-ticks` runs it on request.
 */

export interface DemoMarket {
  /** Condition id (catalog `contractAddress`). */
  conditionId: string;
  /** Outcome token ids, YES first. */
  outcomeIds: readonly string[];
  /**
   * The YES outcome's catalog price (0..1): the walk stays near it and ends near it, so the
   * candles, the recorded book and the catalog agree on one page. Absent: a random start.
   */
  yesPrice?: number;
}

export interface DemoTickOptions {
  days?: number;
  now?: number;
  seed?: number;
  /** Mean seconds between price changes of one market. */
  meanStepSeconds?: number;
  /** Seconds between book snapshots. */
  bookEverySeconds?: number;
  onProgress?: (marketsDone: number, marketsTotal: number, rows: number) => void;
}

export interface DemoTickResult {
  markets: number;
  rows: number;
  byEventType: Record<string, number>;
}

/** mulberry32: a small seeded PRNG, so a demo history is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const price = (cents: number) => String(Math.round(cents) / 100);

export async function writeDemoTicks(writer: ClickHouseClient, markets: readonly DemoMarket[], options: DemoTickOptions = {}): Promise<DemoTickResult> {
  const days = options.days ?? 7;
  const now = options.now ?? Date.now();
  const start = now - days * 86_400_000;
  const random = prng(options.seed ?? 42);
  const meanStep = (options.meanStepSeconds ?? 30) * 1000;
  const bookEvery = (options.bookEverySeconds ?? 900) * 1000;
  const hex = (length: number) => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join("");
  const result: DemoTickResult = { markets: 0, rows: 0, byEventType: {} };
  let batch: TickRow[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await insertTickRows(writer, batch);
    batch = [];
  };
  const emit = async (frame: unknown, ts: number) => {
    for (const row of normalizeFrame(JSON.stringify(frame), ts + 5 + Math.floor(random() * 200)).rows) {
      batch.push(row);
      result.rows += 1;
      result.byEventType[row.eventType] = (result.byEventType[row.eventType] ?? 0) + 1;
    }
    if (batch.length >= 20_000) await flush();
  };

  for (const market of markets) {
    const [yes, no] = market.outcomeIds;
    if (yes === undefined || no === undefined) continue;
    result.markets += 1;
    // The YES best bid in cents and the spread in ticks; NO mirrors it (NO bid = 100 - YES ask).
    // With a catalog price, the mid is pulled back towards it (a mean-reverting walk).
    const target = market.yesPrice === undefined || !Number.isFinite(market.yesPrice) ? undefined : Math.min(97, Math.max(3, market.yesPrice * 100));
    let spread = 1 + Math.floor(random() * 3);
    let bid = target === undefined ? 10 + Math.floor(random() * 80) : Math.max(1, Math.round(target - spread / 2));
    let nextBook = start;
    const book = (ts: number) => {
      const levels = (from: number, step: number) =>
        Array.from({ length: 5 }, (_, i) => from + step * (4 - i))
          .filter((cents) => cents > 0 && cents < 100)
          .map((cents) => ({ price: price(cents), size: String(Math.round(50 + random() * 5000)) }));
      const side = (asset: string, bestBid: number, bestAsk: number) => ({
        market: market.conditionId,
        asset_id: asset,
        timestamp: String(ts),
        hash: hex(40),
        // Wire order: bids ascending, asks descending (best level last).
        bids: levels(bestBid, -1),
        asks: levels(bestAsk, 1),
        tick_size: "0.01",
        event_type: "book",
        last_trade_price: price(bestBid),
      });
      return [side(yes, bid, bid + spread), side(no, 100 - bid - spread, 100 - bid)];
    };
    for (let ts = start + Math.floor(random() * meanStep); ts < now; ts += 1 + Math.floor(-Math.log(1 - random()) * meanStep)) {
      if (ts >= nextBook) {
        await emit(book(ts), ts);
        nextBook = ts + bookEvery;
        continue;
      }
      const move = random();
      const pull = target === undefined ? 0 : Math.max(-0.2, Math.min(0.2, (target - (bid + spread / 2)) * 0.06));
      if (move < 0.3 - pull && bid > 2) bid -= 1;
      else if (move < 0.6 && move >= 0.3 - pull && bid + spread < 98) bid += 1;
      else if (move < 0.7) spread = Math.max(1, Math.min(4, spread + (random() < 0.5 ? -1 : 1)));
      const buy = random() < 0.5;
      const level = buy ? bid : bid + spread;
      const size = random() < 0.2 ? "0" : String(Math.round(10 + random() * 3000));
      await emit(
        {
          market: market.conditionId,
          price_changes: [
            { asset_id: yes, price: price(level), size, side: buy ? "BUY" : "SELL", hash: hex(40), best_bid: price(bid), best_ask: price(bid + spread) },
            { asset_id: no, price: price(100 - level), size, side: buy ? "SELL" : "BUY", hash: hex(40), best_bid: price(100 - bid - spread), best_ask: price(100 - bid) },
          ],
          timestamp: String(ts),
          event_type: "price_change",
        },
        ts,
      );
      if (random() < 0.1) {
        const taker = random() < 0.5;
        await emit(
          {
            asset_id: yes,
            event_type: "last_trade_price",
            fee_rate_bps: "0",
            market: market.conditionId,
            price: price(taker ? bid + spread : bid),
            side: taker ? "BUY" : "SELL",
            size: String(Math.round(5 + random() * 500)),
            timestamp: String(ts + 1),
            transaction_hash: `0x${hex(64)}`,
          },
          ts + 1,
        );
      }
    }
    options.onProgress?.(result.markets, markets.length, result.rows);
  }
  await flush();
  return result;
}

/**
 * The mock venue's open markets with a contract address, YES token first, with the YES outcome's
 * catalog price (the demo's ticks are drawn around it).
 */
export async function demoMarketsFromCatalog(db: Db, exchange = "mock", limit = 5_000): Promise<DemoMarket[]> {
  const rows = await db
    .select({ contractAddress: markets.contractAddress, outcomes: markets.outcomes })
    .from(markets)
    .where(and(eq(markets.venue, exchange), eq(markets.closed, false), isNotNull(markets.contractAddress)))
    .orderBy(sql`${markets.volume24h} desc`, sql`${markets.id} desc`)
    .limit(limit);
  const out: DemoMarket[] = [];
  for (const row of rows) {
    const [yes, no] = row.outcomes;
    if (row.contractAddress === null || yes === undefined || no === undefined) continue;
    out.push({ conditionId: row.contractAddress, outcomeIds: row.outcomes.map((o) => o.outcomeId), yesPrice: yes.price });
  }
  return out;
}

/** Groups the catalog's outcome tokens (topOutcomeTokens) into markets, YES first as listed. */
export function demoMarketsFromTokens(tokens: ReadonlyArray<{ conditionId: string; outcomeId: string }>): DemoMarket[] {
  const byMarket = new Map<string, string[]>();
  for (const token of tokens) byMarket.set(token.conditionId, [...(byMarket.get(token.conditionId) ?? []), token.outcomeId]);
  return [...byMarket.entries()].map(([conditionId, outcomeIds]) => ({ conditionId, outcomeIds }));
}
