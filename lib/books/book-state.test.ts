import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { AssetBook, BookStore, replayBook, type BookRow } from "./book-state";

const fixtures = path.resolve(__dirname, "../../test/fixtures/venues");
const frames = readFileSync(path.join(fixtures, "polymarket_ws_market.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "");
const ids = JSON.parse(readFileSync(path.join(fixtures, "IDS.json"), "utf8")) as {
  final_ws_best: Record<string, { asset_id: string; best_bid: string; best_ask: string }>;
};

function fixtureRows(): BookRow[] {
  return frames.flatMap((frame, i) => normalizeFrame(frame, 1_000 + i).rows);
}

describe("BookStore on the fixture market channel", () => {
  it("ends every asset at the venue's final best bid and ask, in sync", () => {
    const store = new BookStore();
    for (const row of fixtureRows()) store.apply(row);
    for (const expected of Object.values(ids.final_ws_best)) {
      const book = store.get(expected.asset_id);
      expect(book, expected.asset_id).toBeDefined();
      expect(book?.bestBid()).toBe(Number(expected.best_bid));
      expect(book?.bestAsk()).toBe(Number(expected.best_ask));
      expect(book?.inSync).toBe(true);
      expect(book?.desyncs).toBe(0);
    }
  });

  it("serves bids descending and asks ascending, best first, with positive sizes only", () => {
    const store = new BookStore();
    for (const row of fixtureRows()) store.apply(row);
    for (const assetId of store.assets()) {
      const view = store.get(assetId)?.view();
      const bids = view?.bids.map((l) => l.price) ?? [];
      const asks = view?.asks.map((l) => l.price) ?? [];
      expect(bids).toEqual([...bids].sort((a, b) => b - a));
      expect(asks).toEqual([...asks].sort((a, b) => a - b));
      expect([...(view?.bids ?? []), ...(view?.asks ?? [])].every((l) => l.size > 0)).toBe(true);
    }
  });

  it("replayBook up to a row equals the live store at that row", () => {
    const rows = fixtureRows();
    const assetId = ids.final_ws_best.A1?.asset_id ?? "";
    const live = new BookStore();
    for (let i = 0; i < rows.length; i += 1) {
      const row = rows[i];
      if (row === undefined) continue;
      live.apply(row);
      const rebuilt = replayBook(assetId, row.market, rows.slice(0, i + 1));
      const liveView = live.get(assetId)?.view();
      if (liveView !== undefined) expect(rebuilt.view()).toEqual(liveView);
    }
  });
});

describe("AssetBook", () => {
  it("a size of 0 removes the level; a new size replaces the old one", () => {
    const book = new AssetBook("a", "m");
    book.applySnapshot([["0.40", "100"], ["0.41", "50"]], [["0.45", "10"]], 1);
    book.applyChange("BUY", "0.41", "0", 2);
    book.applyChange("BUY", "0.4", "75", 3);
    book.applyChange("SELL", "0.44", "5", 4);
    expect(book.view()).toMatchObject({
      bids: [{ price: 0.4, size: 75 }],
      asks: [{ price: 0.44, size: 5 }, { price: 0.45, size: 10 }],
      timestamp: 4,
    });
  });

  it("a snapshot replaces both sides entirely", () => {
    const book = new AssetBook("a", "m");
    book.applySnapshot([["0.40", "100"]], [["0.45", "10"]], 1);
    book.applySnapshot([["0.30", "1"]], [], 2, "h2", "0.01");
    expect(book.view()).toMatchObject({ bids: [{ price: 0.3, size: 1 }], asks: [], hash: "h2", tickSize: "0.01" });
  });

  it("marks the book out of sync when the venue's stated best disagrees, until the next snapshot", () => {
    const book = new AssetBook("a", "m");
    book.applySnapshot([["0.40", "100"]], [["0.45", "10"]], 1);
    book.applyChange("BUY", "0.41", "5", 2, { bestBid: "0.41", bestAsk: "0.45" });
    expect(book.inSync).toBe(true);
    // A lost frame: the venue says the best bid is 0.42, which this book never saw.
    book.applyChange("SELL", "0.46", "5", 3, { bestBid: "0.42", bestAsk: "0.45" });
    expect(book.inSync).toBe(false);
    expect(book.desyncs).toBe(1);
    book.applySnapshot([["0.42", "1"]], [["0.45", "1"]], 4);
    expect(book.inSync).toBe(true);
  });

  it("accepts an empty side stated as 0 (bids) or 0/1 (asks)", () => {
    const book = new AssetBook("a", "m");
    book.applySnapshot([], [["0.5", "1"]], 1);
    book.applyChange("SELL", "0.5", "0", 2, { bestBid: "0", bestAsk: "1" });
    expect(book.inSync).toBe(true);
  });

  it("ignores rows that are not book events or lack fields", () => {
    const store = new BookStore();
    expect(store.apply({ timestampMs: 1, market: "m", eventType: "last_trade_price", data: '{"asset_id":"a"}' })).toBeUndefined();
    expect(store.apply({ timestampMs: 1, market: "m", eventType: "price_change", data: "not json" })).toBeUndefined();
    expect(store.apply({ timestampMs: 1, market: "m", eventType: "price_change", data: '{"asset_id":"a","side":"X","price":"1","size":"1"}' })).toBeUndefined();
  });
});
