import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/v0/sql/route";
import { getDb } from "@/lib/db";
import { depthHistorySql, publishedPatterns } from "@/lib/sql/patterns";
import { BookStore } from "@/lib/books/book-state";
import { bookRows } from "@/lib/history/ticks";
import { demoMarketsFromTokens, writeDemoTicks, type DemoPrice, type DemoTickResult } from "@/lib/demo/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";
import { getServiceStatus } from "@/lib/status/service-status";
import { getTickStores } from "@/lib/ticks";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

const markets = demoMarketsFromTokens([
  { conditionId: `0x${"a".repeat(64)}`, outcomeId: "111" },
  { conditionId: `0x${"a".repeat(64)}`, outcomeId: "112" },
  { conditionId: `0x${"b".repeat(64)}`, outcomeId: "221" },
  { conditionId: `0x${"b".repeat(64)}`, outcomeId: "222" },
]);
const [m1] = markets;
let result: DemoTickResult;
const prices: DemoPrice[] = [];
let key: string;
const now = Date.now();

async function sql(query: string): Promise<Array<Record<string, unknown>>> {
  const res = await callRoute(POST, { path: "/v0/sql", key, body: { query } });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Array<Record<string, unknown>> }).data;
}

beforeAll(async () => {
  result = await writeDemoTicks((await getTickStores()).writer, markets, {
    days: 2,
    now,
    seed: 7,
    onPrices: async (batch) => {
      prices.push(...batch);
    },
  });
  ({ key } = await makeKey("enterprise"));
});

describe("demo ticks (synthetic)", () => {
  it("groups catalog tokens into markets, YES first", () => {
    expect(markets).toEqual([
      { conditionId: `0x${"a".repeat(64)}`, outcomeIds: ["111", "112"] },
      { conditionId: `0x${"b".repeat(64)}`, outcomeIds: ["221", "222"] },
    ]);
  });

  it("every book the rows imply, at every recorded instant, is uncrossed and agrees with the best prices it states", async () => {
    const client = (await getTickStores()).service;
    for (const market of markets) {
      for (const asset of market.outcomeIds) {
        // The history's own reader and book state: what GET /v0/orderbooks/{id}?at= rebuilds at any instant.
        const store = new BookStore();
        let checked = 0;
        let snapshots = 0;
        for await (const row of bookRows(client, { table: recordedVenueTables.polymarket, conditionId: market.conditionId }, asset, now - 3 * 86_400_000, now + 1_000)) {
          const book = store.apply(row);
          if (book === undefined) continue;
          if (row.eventType === "book") snapshots += 1;
          if (!book.hasSnapshot) continue;
          const bid = book.bestBid();
          const ask = book.bestAsk();
          expect(bid, `${asset} at ${row.timestampMs}: no bid`).toBeDefined();
          expect(ask, `${asset} at ${row.timestampMs}: no ask`).toBeDefined();
          if (bid === undefined || ask === undefined || bid >= ask || !book.inSync) {
            throw new Error(`${asset} at ${row.timestampMs}: bid ${String(bid)} ask ${String(ask)} inSync ${String(book.inSync)}`);
          }
          checked += 1;
        }
        expect(snapshots).toBeGreaterThan(150);
        expect(checked).toBeGreaterThan(5_000);
      }
    }
  });

  it("hands over a price history of every outcome that sits inside its book and mirrors YES and NO", () => {
    const [yes, no] = m1?.outcomeIds ?? [];
    const ofYes = prices.filter((p) => p.outcomeId === yes);
    // One sample every 10 minutes over 2 days.
    expect(ofYes.length).toBeGreaterThanOrEqual(2 * 144);
    for (const p of prices) {
      expect(p.bestBid).toBeLessThan(p.price);
      expect(p.price).toBeLessThan(p.bestAsk);
    }
    const noAt = new Map(prices.filter((p) => p.outcomeId === no).map((p) => [p.atMs, p.price]));
    for (const p of ofYes) expect(p.price + (noAt.get(p.atMs) ?? Number.NaN)).toBeCloseTo(1, 9);
    expect(new Set(ofYes.map((p) => p.price)).size).toBeGreaterThan(5);
  });

  it("writes books, price changes and trades inside the window", async () => {
    expect(result.markets).toBe(2);
    // ~2 days at one change per 30 s on average, 2 rows per change, per market.
    expect(result.byEventType.price_change).toBeGreaterThan(2 * 2 * 2 * 2_880 * 0.8);
    expect(result.byEventType.book).toBeGreaterThan(2 * 2 * 180);
    expect(result.byEventType.last_trade_price).toBeGreaterThan(100);
    const rows = await sql(
      `SELECT event_type, count() AS n, min(timestamp) AS first, max(timestamp) AS last FROM polymarket_orderbook_rust WHERE market = '${m1?.conditionId}' GROUP BY event_type ORDER BY event_type`,
    );
    expect(rows.map((r) => r.event_type)).toEqual(["book", "last_trade_price", "price_change"]);
    for (const row of rows) {
      expect(Date.parse(`${String(row.first).replace(" ", "T")}Z`)).toBeGreaterThanOrEqual(now - 2 * 86_400_000);
      expect(Date.parse(`${String(row.last).replace(" ", "T")}Z`)).toBeLessThanOrEqual(now + 1_000);
    }
  });

  it("serves the three published patterns with real rows, consistent books and mirrored tokens", async () => {
    const [yes, no] = m1?.outcomeIds ?? [];
    const patterns = publishedPatterns(m1?.conditionId ?? "", yes ?? "");
    const candles = await sql(patterns.candles);
    expect(candles.length).toBeGreaterThanOrEqual(47);
    for (const c of candles) {
      expect(Number(c.low)).toBeGreaterThan(0);
      expect(Number(c.high)).toBeLessThan(1);
      expect(Number(c.low)).toBeLessThanOrEqual(Math.min(Number(c.open), Number(c.close)));
    }
    const books = await sql(patterns.books);
    expect(books).toHaveLength(20);
    for (const b of books) {
      const bids = JSON.parse(String(b.bids)) as Array<[string, string]>;
      const asks = JSON.parse(String(b.asks)) as Array<[string, string]>;
      expect(Number(bids[bids.length - 1]?.[0])).toBeLessThan(Number(asks[asks.length - 1]?.[0]));
    }
    const depth = await sql(patterns.depth);
    expect(depth).toHaveLength(100);
    // YES best bid + NO best ask = 1 at every change.
    const mirrored = await sql(`SELECT count() AS n FROM polymarket_orderbook_rust AS y
      INNER JOIN (SELECT timestamp, JSONExtractString(data, 'best_ask') AS no_ask FROM polymarket_orderbook_rust
                  WHERE market = '${m1?.conditionId}' AND event_type = 'price_change' AND JSONExtractString(data, 'asset_id') = '${no}') AS n
      ON y.timestamp = n.timestamp
      WHERE y.market = '${m1?.conditionId}' AND y.event_type = 'price_change' AND JSONExtractString(y.data, 'asset_id') = '${yes}'
        AND abs(toFloat64OrZero(JSONExtractString(y.data, 'best_bid')) + toFloat64OrZero(n.no_ask) - 1) > 0.000001`);
    expect(mirrored).toEqual([{ n: 0 }]);
  });

  it("depth over time follows the range and one outcome, oldest first, aggregated to the range's buckets", async () => {
    const [yes] = m1?.outcomeIds ?? [];
    const day = await sql(depthHistorySql({ market: m1?.conditionId ?? "", assetId: yes ?? "" }, "24h"));
    const week = await sql(depthHistorySql({ market: m1?.conditionId ?? "", assetId: yes ?? "" }, "7d"));
    const books = (rows: typeof day) => rows.reduce((sum, r) => sum + Number(r.books), 0);
    // Books every 15 minutes: about 96 a day for this outcome, all of the 2 recorded days in 7d.
    expect(books(day)).toBeGreaterThan(80);
    expect(books(day)).toBeLessThan(110);
    expect(books(week)).toBeGreaterThan(books(day) * 1.8);
    // 10-minute buckets over a day, hourly over a week: a week of books is at most 7 x 24 rows, not one per book.
    expect(day.length).toBeLessThanOrEqual(24 * 6 + 1);
    expect(week.length).toBeLessThanOrEqual(7 * 24 + 1);
    expect(week.length).toBeLessThan(books(week) / 3);
    const times = day.map((r) => Date.parse(`${String(r.bucket).replace(" ", "T")}Z`));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((t) => t % 600_000 === 0)).toBe(true);
    expect(times[0]).toBeGreaterThanOrEqual(now - 86_400_000 - 600_000);
    for (const r of [...day, ...week]) {
      for (const side of ["bid", "ask"]) {
        const [p10, p50, p90] = [Number(r[`${side}_p10`]), Number(r[`${side}_p50`]), Number(r[`${side}_p90`])];
        expect(p10).toBeGreaterThan(0);
        expect(p10).toBeLessThanOrEqual(p50);
        expect(p50).toBeLessThanOrEqual(p90);
      }
    }
  });

  it("with a catalog price, the walk stays near it and the last book sits around it", async () => {
    const conditionId = `0x${"c".repeat(64)}`;
    await writeDemoTicks((await getTickStores()).writer, [{ conditionId, outcomeIds: ["331", "332"], yesPrice: 0.823 }], { days: 2, now, seed: 11 });
    const [range] = await sql(`SELECT min(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS low, max(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS high
      FROM polymarket_orderbook_rust WHERE market = '${conditionId}' AND event_type = 'price_change' AND JSONExtractString(data, 'asset_id') = '331'`);
    expect(Number(range?.low)).toBeGreaterThan(0.7);
    expect(Number(range?.high)).toBeLessThan(0.9);
    const [latest] = await sql(publishedPatterns(conditionId, "331").books);
    const bids = JSON.parse(String(latest?.bids)) as Array<[string, string]>;
    const asks = JSON.parse(String(latest?.asks)) as Array<[string, string]>;
    const mid = (Number(bids[bids.length - 1]?.[0]) + Number(asks[asks.length - 1]?.[0])) / 2;
    expect(Math.abs(mid - 0.823)).toBeLessThan(0.06);
  });

  it("GET /v0/status carries the recorder section", async () => {
    const status = await getServiceStatus(await getDb());
    expect(status.recorder).toMatchObject({ mode: "disabled (BACKGROUND_JOBS=false)", running: false, idleReason: null });
  });
});
