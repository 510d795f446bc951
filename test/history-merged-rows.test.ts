import { beforeAll, describe, expect, it } from "vitest";
import { AssetBook, applyReplayBatchRow, BookStore } from "@/lib/books/book-state";
import { bookRows, mergedBookRows } from "@/lib/history/ticks";
import type { TickRow } from "@/lib/recorder/rows";
import { insertTickRows } from "@/lib/recorder/writer";
import { getTickStores, requestTickReader, type TickReader } from "@/lib/ticks";
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
  // Texts the engine reads as numbers (trailing zeros, -0) and texts it leaves to Node.
  change({ side: "SELL", price: "0.7500", size: "10.00", ...stated("1.0", "0.70") }),
  change({ side: "SELL", price: "-0.0", size: "1", ...stated(1, null) }),
  change({ side: "SELL", price: "0.71", size: "Infinity", ...stated("1", "0.7") }),
  change({ side: "SELL", price: "inf", size: "1", ...stated("1", "nan") }),
  change({ side: "SELL", price: "0.72", size: "+1", ...stated("1.", "0.7") }),
  change({ side: "SELL", price: "0.73", size: "0x10", ...stated("1", "0.7e0") }),
  change({ side: "SELL", price: "0.77", size: "3", best_bid: "1" }),
  change({ side: "SELL", price: "0.7", size: "0", ...stated("0.99", "0.71") }),
  book({ asks: [["0.7", "1"]] }),
  change({ side: "SELL", price: "0.7", size: "0", ...stated("0", "1") }),
  book({ bids: "x", asks: [["0.7", "2"], [0.8, "1"], ["0.9"]] }),
  change({ side: "BUY", price: "0", size: "4", ...stated("0", "0.7") }),
  change({ side: "SELL", price: "0.9", size: "1", ...stated("0", "0.70") }),
  change({ side: "BUY", price: "1", size: "1", ...stated("1", "0.7") }),
];

/**
 * A seeded random script of a second asset: snapshots every 40 rows, changes drawn from exact and
 * inexact texts; most changes state the best prices a plain model of the book holds (written
 * several ways), so the book stays in sync for stretches and a wrong stated best shows.
 */
const RANDOM_ASSET = `${ASSET.slice(0, -1)}2`;
const TEXTS = ["0.5", "0.50", "0.500", "0.05", "1", "0", "-0", "0.4200", "12.5", "100", "0.1", "0.3", "1e-1", " 0.5", "0.5 ", "+0.5", ".5", "5.", "abc", "", "inf", "NaN", "0.30000000000000004", "0.1234567890123456789", "007"];
function randomScript(seed: number, length: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const price = () => (next() < 0.85 ? `0.${String(1 + Math.floor(next() * 98)).padStart(2, "0")}${next() < 0.2 ? "00" : ""}` : pick(TEXTS));
  const odd = () => pick<unknown>([null, 0.5, undefined, ["0.5"], ...TEXTS]);
  const model = { bids: new Map<number, number>(), asks: new Map<number, number>() };
  const set = (side: Map<number, number>, p: unknown, q: unknown) => {
    if (typeof p !== "string" || typeof q !== "string" || p.trim() === "" || q.trim() === "") return;
    const [pn, qn] = [Number(p), Number(q)];
    if (!Number.isFinite(pn) || !Number.isFinite(qn)) return;
    if (qn > 0) side.set(pn, qn);
    else side.delete(pn);
  };
  const best = (side: Map<number, number>, pickOf: (...values: number[]) => number, empty: string) => {
    const value = side.size === 0 ? undefined : pickOf(...side.keys());
    if (value === undefined) return empty;
    return next() < 0.5 ? String(value) : value.toFixed(4);
  };
  return Array.from({ length }, (_, i) => {
    if (i % 40 === 0) {
      // One snapshot of thousands of levels: a row longer than the head a cut row is completed from (lib/history/ticks.ts).
      const depth = i === 200 ? 4000 : 1 + Math.floor(next() * 6);
      const levels = () => Array.from({ length: depth }, () => [price(), pick(["1", "10.00", "0", "2.5"])]);
      const [bids, asks] = [levels(), levels()];
      model.bids.clear();
      model.asks.clear();
      for (const [p, q] of bids) set(model.bids, p, q);
      for (const [p, q] of asks) set(model.asks, p, q);
      return { event: "book" as const, data: { asset_id: RANDOM_ASSET, bids, asks } };
    }
    const side = next() < 0.97 ? pick(["BUY", "SELL"]) : pick<unknown>(["buy", 1, null]);
    const p = next() < 0.95 ? price() : odd();
    const q = next() < 0.95 ? pick(["0", "1", "10", "2.50", "100.0"]) : odd();
    if (side === "BUY") set(model.bids, p, q);
    if (side === "SELL") set(model.asks, p, q);
    const honest = next() < 0.9;
    const bid = honest ? best(model.bids, Math.max, "0") : next() < 0.5 ? price() : odd();
    const ask = honest ? best(model.asks, Math.min, "1") : next() < 0.5 ? price() : odd();
    return { event: "price_change" as const, data: { asset_id: RANDOM_ASSET, side, price: p, size: q, best_bid: bid, best_ask: ask } };
  });
}
const RANDOM_SEEDS = [1, 7, 42];
const RANDOM_ROWS = 400;

beforeAll(async () => {
  const rows: TickRow[] = script.map((row, i) => ({ timestampMs: T0 + i * 1000, receivedMs: T0 + i * 1000, market: CONDITION, eventType: row.event, data: JSON.stringify(row.data) }));
  await insertTickRows((await getTickStores()).writer, rows, recordedVenueTables.polymarket);
  for (const [index, seed] of RANDOM_SEEDS.entries()) {
    const start = T0 + (index + 1) * 3_600_000;
    const random: TickRow[] = randomScript(seed, RANDOM_ROWS).map((row, i) => ({ timestampMs: start + i * 1000, receivedMs: start + i * 1000, market: CONDITION, eventType: row.event, data: JSON.stringify(row.data) }));
    await insertTickRows((await getTickStores()).writer, random, recordedVenueTables.polymarket);
  }
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
    const kinds: number[] = [];
    const actual: ReturnType<typeof stateOf>[] = [];
    const replayed = new AssetBook(ASSET, "");
    for await (const batch of mergedBookRows(ticks, [{ source, assetId: ASSET, fromMs: T0 }], T0 + script.length * 1000)) {
      for (let i = 0; i < batch.length; i += 1) {
        kinds.push(batch.kind[i] ?? -1);
        applyReplayBatchRow(replayed, batch, i);
        actual.push(stateOf(replayed));
      }
    }
    // Both ways a change comes: read as numbers by the engine, and left as texts.
    expect(kinds.filter((kind) => kind === 2).length).toBeGreaterThan(10);
    expect(kinds.filter((kind) => kind === 0).length).toBeGreaterThan(10);
    expect(kinds).toHaveLength(script.length);
    expect(actual).toEqual(expected);
    // The script reaches the cases it is about: a desync and its snapshot, levels at 0 and 1, a huge size.
    expect(expected.map((state) => state.inSync)).toContain(false);
    expect(expected.at(-1)).toMatchObject({ inSync: true, bids: [{ price: 1, size: 1 }, { price: 0, size: 4 }] });
    expect(expected[1]?.asks).toContainEqual({ price: 1, size: 123456789012345678901234567890 });
  });

  it.each(RANDOM_SEEDS.map((seed, index) => [seed, index]))("rebuild the same book on a random script (seed %i), across the engine's chunks", async (_seed, index) => {
    const ticks = requestTickReader();
    const from = T0 + (index + 1) * 3_600_000;
    const to = from + RANDOM_ROWS * 1000;
    const expected: ReturnType<typeof stateOf>[] = [];
    const store = new BookStore();
    for await (const row of bookRows(ticks, source, RANDOM_ASSET, from, to)) {
      store.apply(row);
      expected.push(stateOf(store.get(RANDOM_ASSET)));
    }
    const replayed = new AssetBook(RANDOM_ASSET, "");
    const actual: ReturnType<typeof stateOf>[] = [];
    const kinds = new Set<number>();
    // The engine's stream cut into pieces of 1 to 60 bytes and, one in five, of 70 kB: rows and
    // their texts split across chunks, a long row across a long chunk.
    let cut = index;
    const pieces: TickReader = {
      ...ticks,
      streamQuery: async function* (query, format, signal) {
        for await (const chunk of ticks.streamQuery(query, format, signal)) {
          for (let at = 0; at < chunk.length; ) {
            cut = (cut * 31 + 17) % 60;
            const size = cut % 5 === 0 ? 70_000 : 1 + cut;
            yield chunk.subarray(at, at + size);
            at += size;
          }
        }
      },
    };
    for await (const batch of mergedBookRows(pieces, [{ source, assetId: RANDOM_ASSET, fromMs: from }], to)) {
      for (let i = 0; i < batch.length; i += 1) {
        kinds.add(batch.kind[i] ?? -1);
        applyReplayBatchRow(replayed, batch, i);
        actual.push(stateOf(replayed));
      }
    }
    expect(kinds).toEqual(new Set([0, 1, 2]));
    expect(actual).toHaveLength(RANDOM_ROWS);
    expect(actual).toEqual(expected);
    // In sync for stretches and out of sync after a wrong stated best.
    expect(expected.filter((state) => state.inSync === false).length).toBeGreaterThan(10);
    expect(expected.filter((state) => state.inSync === true).length).toBeGreaterThan(RANDOM_ROWS / 10);
  });
});
