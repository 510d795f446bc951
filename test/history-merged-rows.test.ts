import { beforeAll, describe, expect, it } from "vitest";
import { AssetBook, applyBookData, applyChangeData, BookStore } from "@/lib/books/book-state";
import { bookRows, mergedBookRows, type MergedBookRow } from "@/lib/history/ticks";
import type { TickRow } from "@/lib/recorder/rows";
import { insertTickRows } from "@/lib/recorder/writer";
import { getTickStores, requestTickReader } from "@/lib/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";

/**
 * The merged replay's rows (lib/history/ticks.ts, `mergedBookRows`: the engine writes the fields a
 * replay reads, not the document) rebuild the very book that the documents rebuild through
 * `BookStore.apply`, row by row, for the edge values a venue can send: prices at 0 and 1, tiny and
 * huge sizes, decimals written several ways, texts that are not numbers, numbers where a text
 * belongs, fields and levels missing, a stated best that disagrees. The series (lib/spreads) reads
 * these rows; a change to how the engine writes them or how they are read must keep this equal.
 */

const T0 = Date.UTC(2026, 10, 21, 0, 0, 0);
const CONDITION = `0x${"5e".repeat(32)}`;
const ASSET = "7700000000000000000000000000000000000000000000000000000000000000000000000001";
const source = { table: recordedVenueTables.polymarket, conditionId: CONDITION };

const change = (fields: Record<string, unknown>) => ({ event: "price_change" as const, data: { asset_id: ASSET, ...fields } });
const book = (fields: Record<string, unknown>) => ({ event: "book" as const, data: { asset_id: ASSET, ...fields } });
const stated = (bid: unknown, ask: unknown) => ({ best_bid: bid, best_ask: ask });

/** The script, one row a second. */
const script = [
  book({ bids: [["0.40", "100"], ["0", "5"], ["0.000001", "0.000000001"]], asks: [["1", "123456789012345678901234567890"], ["0.60", "10"]] }),
  change({ side: "BUY", price: "0.41", size: "50", ...stated("0.41", "0.6") }),
  change({ side: "SELL", price: "1", size: "0", ...stated("0.41", "0.60") }),
  change({ side: "BUY", price: " 0.42", size: "7", ...stated(" 0.42", "0.6") }),
  change({ side: "BUY", price: "0.4200", size: "8", ...stated("0.42", "0.6") }),
  change({ side: "BUY", price: "", size: "5" }),
  change({ side: "BUY", price: "abc", size: "5", ...stated("x", "") }),
  change({ side: "BUY", price: 0.43, size: "5", ...stated("0.43", "0.6") }),
  change({ side: "BUY", price: null, size: "5" }),
  change({ side: "BUY", price: "0.43" }),
  change({ side: "buy", price: "0.43", size: "5" }),
  change({ side: "BUY", price: "-0", size: "3", ...stated("0.42", "0.6") }),
  change({ side: "BUY", price: "0.43", size: "0.000000001", ...stated("0.43", "0.6") }),
  change({ side: "BUY", price: "0.44", size: "99999999999999999999999", ...stated("0.44", "0.6") }),
  change({ side: "BUY", price: "0.45", size: "1e3", ...stated("0.45", "0.6") }),
  change({ side: "BUY", price: "00.46", size: "1", ...stated("0.46", "0.6") }),
  change({ side: "BUY", price: "0.4612345678901234567890123", size: "1", ...stated("0.4612345678901234567890123", "0.6") }),
  change({ side: "BUY", price: "0.47", size: "2", ...stated(0.47, { p: "0.6" }) }),
  change({ side: "SELL", price: "0.01", size: "5", ...stated("0.47", "0.6") }),
  book({ asks: [["0.7", "1"]] }),
  change({ side: "SELL", price: "0.7", size: "0", ...stated("0", "1") }),
  book({ bids: "x", asks: [["0.7", "2"], [0.8, "1"], ["0.9"]] }),
  change({ side: "BUY", price: "0", size: "4", ...stated("0", "0.7") }),
  change({ side: "SELL", price: "0.9", size: "1", ...stated("0", "0.70") }),
  change({ side: "BUY", price: "1", size: "1", ...stated("1", "0.7") }),
];

beforeAll(async () => {
  const rows: TickRow[] = script.map((row, i) => ({ timestampMs: T0 + i * 1000, receivedMs: T0 + i * 1000, market: CONDITION, eventType: row.event, data: JSON.stringify(row.data) }));
  await insertTickRows((await getTickStores()).writer, rows, recordedVenueTables.polymarket);
});

const stateOf = (book: AssetBook | undefined) => {
  const view = book?.view();
  return { bids: view?.bids, asks: view?.asks, timestamp: view?.timestamp, inSync: book?.inSync, hasSnapshot: book?.hasSnapshot };
};

describe("merged replay rows (lib/history/ticks.ts)", () => {
  it("rebuild, after every row, the book the documents rebuild", async () => {
    const ticks = requestTickReader();
    const expected: ReturnType<typeof stateOf>[] = [];
    const store = new BookStore();
    for await (const row of bookRows(ticks, source, ASSET, T0, T0 + script.length * 1000)) {
      store.apply(row);
      expected.push(stateOf(store.get(ASSET)));
    }
    const merged: MergedBookRow[] = [];
    for await (const batch of mergedBookRows(ticks, [{ source, assetId: ASSET, fromMs: T0 }], T0 + script.length * 1000)) merged.push(...batch);
    const replayed = new AssetBook(ASSET, "");
    const actual = merged.map((row) => {
      if (row[2] === 1) applyBookData(replayed, row[0], row[3], row[4]);
      else applyChangeData(replayed, row[0], row[3], row[4], row[5], row[6], row[7]);
      return stateOf(replayed);
    });
    expect(merged).toHaveLength(script.length);
    expect(actual).toEqual(expected);
    // The script reaches the cases it is about: a desync and its snapshot, levels at 0 and 1, a huge size.
    expect(expected.map((state) => state.inSync)).toContain(false);
    expect(expected.at(-1)).toMatchObject({ inSync: true, bids: [{ price: 1, size: 1 }, { price: 0, size: 4 }] });
    expect(expected[1]?.asks).toContainEqual({ price: 1, size: 123456789012345678901234567890 });
  });
});
