import { beforeAll, describe, expect, it } from "vitest";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { recorderRuns } from "@/lib/db/schema/recorder-runs";
import { SYNTHETIC_MODE } from "@/lib/recorder/journal";
import { DEMO_PAIR } from "@/lib/demo/pair";
import { demoMarketsFromCatalog } from "@/lib/demo/ticks";
import { recordedBookAt } from "@/lib/history/orderbooks";
import { sparklines } from "@/lib/history/prices";
import { runAdminCommand, type AdminIo } from "@/lib/operator/commands";
import { getTickStores } from "@/lib/ticks";

/**
 * One source of truth for every demo number (README, "Quick start"): after `admin demo-ticks`,
 * every demo market's catalog price is the last recorded book's mid (within a tick), its 24-hour
 * change is the history's own change (the mid now minus the mid 24 hours ago, within a tick), and
 * its sparkline ends at its price. Walks every mock market with a history and both sides of the
 * demo pair.
 */

const TICK = 0.01;
const DAY = 86_400_000;
let now: number;

const said: string[] = [];
const io: AdminIo = { say: (message) => said.push(message), out: (result) => said.push(result), readInput: async () => "" };

async function mid(outcomeId: string, at: number): Promise<number> {
  const book = await recordedBookAt(await getDb(), (await getTickStores()).service, outcomeId, { at, depth: 1 });
  const bid = book.bids[0]?.price;
  const ask = book.asks[0]?.price;
  expect(bid, `${outcomeId} has a bid at ${new Date(at).toISOString()}`).toBeDefined();
  expect(ask, `${outcomeId} has an ask at ${new Date(at).toISOString()}`).toBeDefined();
  return ((bid ?? 0) + (ask ?? 0)) / 2;
}

beforeAll(async () => {
  expect(await runAdminCommand(["ingest", "--venue", "mock"], io), said.join("\n")).toBe(0);
  expect(await runAdminCommand(["demo-ticks", "--days", "2"], io), said.join("\n")).toBe(0);
  // The instant the history ends (its journal run's stop): the catalog was priced as of then.
  const [run] = await (await getDb()).select({ stoppedAt: recorderRuns.stoppedAt }).from(recorderRuns).where(eq(recorderRuns.mode, SYNTHETIC_MODE)).orderBy(desc(recorderRuns.stoppedAt)).limit(1);
  now = run?.stoppedAt?.getTime() ?? Number.NaN;
  expect(Number.isFinite(now)).toBe(true);
}, 1_200_000);

describe("the demo's numbers agree everywhere", () => {
  it("every mock market with a history: catalog price = last recorded mid, 24h change = the history's change, sparkline ends at the price", async () => {
    const db = await getDb();
    const markets = await demoMarketsFromCatalog(db, "mock");
    expect(markets.length).toBeGreaterThan(10);
    const lines = new Map((await sparklines(db, (await getTickStores()).service, { marketIds: markets.flatMap((m) => (m.marketId === undefined ? [] : [m.marketId])) }, now)).map((line) => [line.marketId, line]));
    for (const market of markets) {
      const listed = await getMarketOrThrow(db, market.marketId ?? "");
      const yes = listed.outcomes[0];
      expect(yes?.outcomeId).toBe(market.outcomeIds[0]);
      if (yes === undefined) continue;
      const [nowMid, dayAgoMid] = [await mid(yes.outcomeId, now), await mid(yes.outcomeId, now - DAY)];
      expect(Math.abs(yes.price - nowMid), `${listed.marketId} price ${yes.price} vs book mid ${nowMid}`).toBeLessThanOrEqual(TICK);
      expect(Math.abs((yes.priceChange24h ?? Number.NaN) - (nowMid - dayAgoMid)), `${listed.marketId} change ${yes.priceChange24h} vs ${nowMid - dayAgoMid}`).toBeLessThanOrEqual(TICK);
      const last = lines.get(listed.marketId)?.points.at(-1)?.[1];
      expect(last, `${listed.marketId} has a sparkline`).toBeDefined();
      expect(Math.abs((last ?? Number.NaN) - yes.price)).toBeLessThanOrEqual(TICK);
      // The NO outcome mirrors the YES book.
      const no = listed.outcomes[1];
      expect(Math.abs((no?.price ?? Number.NaN) - (1 - nowMid))).toBeLessThanOrEqual(TICK);
    }
  });

  it("the demo pair: each venue's catalog price and 24h change come from its own recorded book", async () => {
    const db = await getDb();
    for (const [ref, outcomeId] of [
      [DEMO_PAIR.polymarket.venueMarketId, DEMO_PAIR.polymarket.yes],
      [DEMO_PAIR.kalshi.ticker, DEMO_PAIR.kalshi.ticker],
    ] as const) {
      const listed = await getMarketOrThrow(db, ref);
      const yes = listed.outcomes.find((o) => o.outcomeId === outcomeId);
      expect(yes, `${ref} lists ${outcomeId}`).toBeDefined();
      const [nowMid, dayAgoMid] = [await mid(outcomeId, now), await mid(outcomeId, now - DAY)];
      expect(Math.abs((yes?.price ?? Number.NaN) - nowMid), `${ref} price ${yes?.price} vs book mid ${nowMid}`).toBeLessThanOrEqual(TICK);
      expect(Math.abs((yes?.priceChange24h ?? Number.NaN) - (nowMid - dayAgoMid)), `${ref} change`).toBeLessThanOrEqual(TICK);
    }
  });
});
