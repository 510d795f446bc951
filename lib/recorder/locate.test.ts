import { describe, expect, it } from "vitest";
import { candleSql } from "@/lib/sql/patterns";
import { publishedTables } from "@/lib/ticks/published";
import { recordedMarketIn } from "./locate";
import { recordedMarketOf, recordedVenues, recordingRules } from "./registry";

describe("recordedMarketOf (the registry) and recordedMarketIn over recordingRules (the market page's charts)", () => {
  it.each([
    [{ venue: "polymarket", venueMarketId: "681204", contractAddress: "0xabc" }, { table: "polymarket_orderbook_rust", market: "0xabc" }],
    [{ venue: "kalshi", venueMarketId: "KXFED-27MAR-H0", contractAddress: null }, { table: "kalshi_orderbook", market: "KXFED-27MAR-H0" }],
    // The offline demo's mock venue writes its synthetic ticks into Polymarket's table under its contract address.
    [{ venue: "mock", venueMarketId: "m1", contractAddress: "0xmockm1" }, { table: "polymarket_orderbook_rust", market: "0xmockm1" }],
    [{ venue: "limitless", venueMarketId: "slug", contractAddress: null }, undefined],
  ])("%o -> %o", (market, expected) => {
    const registry = recordedMarketOf(market);
    expect(registry === undefined ? undefined : { table: registry.table, market: registry.market }).toEqual(expected);
    const page = recordedMarketIn(recordingRules(), market);
    expect(page === undefined ? undefined : { table: page.table, market: page.market }).toEqual(expected);
  });

  it("hands the browser plain data (it crosses from a server page to a client component)", () => {
    expect(JSON.parse(JSON.stringify(recordingRules()))).toEqual(recordingRules());
  });

  it("registers only venues whose tables are published (lib/ticks/published.ts: the SQL guard, the reader's grants, a cluster's DDL)", () => {
    for (const venue of recordedVenues()) expect(publishedTables, venue.id).toContain(venue.table);
  });

  it("gives tables that are published, and the market page's candles query the Kalshi table by ticker", () => {
    const recorded = recordedMarketOf({ venue: "kalshi", venueMarketId: "KXFED-27MAR-H0", contractAddress: null });
    expect(publishedTables).toContain(recorded?.table);
    const sql = candleSql({ market: recorded?.market ?? "", assetId: "KXFED-27MAR-H0-NO", table: recorded?.table });
    expect(sql).toContain("FROM kalshi_orderbook\nWHERE market = 'KXFED-27MAR-H0'");
    expect(sql).toContain("JSONExtractString(data, 'asset_id') = 'KXFED-27MAR-H0-NO'");
  });
});
