import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDemoTicks, demoMarketsFromTokens } from "@/lib/demo/ticks";
import { publishedPatterns } from "@/lib/sql/patterns";
import { closeTickStores, getTickStores, type TickStores } from "@/lib/ticks";
import { tickTable } from "./0001_polymarket_orderbook";

const [market] = demoMarketsFromTokens([
  { conditionId: `0x${"c".repeat(64)}`, outcomeId: "301" },
  { conditionId: `0x${"c".repeat(64)}`, outcomeId: "302" },
]);
const other = demoMarketsFromTokens([
  { conditionId: `0x${"d".repeat(64)}`, outcomeId: "401" },
  { conditionId: `0x${"d".repeat(64)}`, outcomeId: "402" },
]);
let stores: TickStores;

async function rows(query: string): Promise<unknown[][]> {
  const result = await stores.writer.query({ query, format: "JSONCompact" });
  return (await result.json<unknown[]>()).data;
}

/** The verbatim candle pattern, answered with and without projections. */
async function candlesBothWays(): Promise<{ projected: unknown[][]; plain: unknown[][]; plan: string }> {
  const candle = publishedPatterns(market?.conditionId ?? "", market?.outcomeIds[0] ?? "").candles.replace(/;$/, "");
  const plan = (await rows(`EXPLAIN ${candle}`)).map((row) => String(row[0])).join("\n");
  return { projected: await rows(candle), plain: await rows(`${candle} SETTINGS optimize_use_projections = 0`), plan };
}

beforeAll(async () => {
  stores = await getTickStores();
  if (market === undefined) throw new Error("no demo market");
  await writeDemoTicks(stores.writer, [market, ...other], { days: 3, seed: 11, meanStepSeconds: 20 });
});

afterAll(async () => {
  await closeTickStores();
});

describe("tick table projection best_bid_by_asset", () => {
  it("answers the verbatim candle pattern from the projection, with the same result as the table", async () => {
    const { projected, plain, plan } = await candlesBothWays();
    expect(plan).toContain("ReadFromMergeTree (best_bid_by_asset)");
    expect(projected.length).toBeGreaterThan(48);
    expect(projected).toEqual(plain);
  });

  it("stays identical to the table after duplicates are inserted and merged away", async () => {
    const before = await candlesBothWays();
    // Two recorders during a deploy: the same events written again, then the replacing merge.
    await stores.writer.command({
      query: `INSERT INTO ${tickTable} SELECT * FROM ${tickTable} WHERE market = '${market?.conditionId}' AND event_type = 'price_change' LIMIT 500`,
    });
    await stores.writer.command({ query: `OPTIMIZE TABLE ${tickTable} FINAL` });
    const after = await candlesBothWays();
    expect(after.plan).toContain("ReadFromMergeTree (best_bid_by_asset)");
    expect(after.projected).toEqual(after.plain);
    expect(after.projected).toEqual(before.projected);
  });
});
