import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as bookRoute } from "@/app/v0/orderbooks/[outcomeId]/route";
import { GET as historyRoute } from "@/app/v0/orderbooks/[outcomeId]/history/route";
import { GET as tradesRoute } from "@/app/v0/trades/[outcomeId]/route";
import { getDb } from "@/lib/db";
import { recordedBookAt, recordedBookHistory } from "@/lib/history/orderbooks";
import { HISTORY_DEFAULT_DEPTH, HISTORY_DEFAULT_LIMIT, MAX_DEPTH } from "@/lib/history/shapes";
import { getTickStores, requestTickReader } from "@/lib/ticks";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { fixtureFrames } from "./fakes/market-channel";
import { writeFrames } from "./fakes/tick-rows";

// The shared auth suite sends the plan's whole per-minute allowance: keep it small here.
vi.hoisted(() => {
  process.env.RATE_LIMIT_PRO = "12";
  process.env.RATE_LIMIT_FREE = "12";
});

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as Record<
  "M1" | "M2",
  { cond: string; yes: string; no: string }
>;
const assets = [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no];

type Obj = Record<string, unknown>;
interface RawEvent {
  ts: number;
  order: number;
  asset: string;
  kind: "book" | "change";
  bids?: Array<[string, string]>;
  asks?: Array<[string, string]>;
  side?: string;
  price?: string;
  size?: string;
}

/**
 * An independent replay of the raw fixture frames, written here without lib/books or the
 * recorder: every event of the asset with venue time <= t, in time order (a `book` first among
 * events of the same millisecond, then frame order); a book replaces both sides, a change sets a
 * level and size 0 removes it.
 */
function rawEvents(): RawEvent[] {
  const out: RawEvent[] = [];
  let order = 0;
  for (const line of fixtureFrames) {
    const parsed = JSON.parse(line) as Obj | Obj[];
    for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
      const ts = Number(e.timestamp);
      if (e.event_type === "book") {
        const side = (levels: unknown) => (levels as Array<{ price: string; size: string }>).map((l): [string, string] => [l.price, l.size]);
        out.push({ ts, order: order++, asset: String(e.asset_id), kind: "book", bids: side(e.bids), asks: side(e.asks) });
      } else if (e.event_type === "price_change") {
        for (const c of e.price_changes as Obj[]) {
          out.push({ ts, order: order++, asset: String(c.asset_id), kind: "change", side: String(c.side), price: String(c.price), size: String(c.size) });
        }
      }
    }
  }
  return out.sort((a, b) => a.ts - b.ts || (a.kind === b.kind ? 0 : a.kind === "book" ? -1 : 1) || a.order - b.order);
}

function independentBook(events: RawEvent[], asset: string, t: number) {
  let bids: Map<string, number> | undefined;
  let asks = new Map<string, number>();
  let last = 0;
  for (const e of events) {
    if (e.asset !== asset || e.ts > t) continue;
    if (e.kind === "book") {
      bids = new Map((e.bids ?? []).map(([p, s]) => [p, Number(s)]));
      asks = new Map((e.asks ?? []).map(([p, s]) => [p, Number(s)]));
      last = e.ts;
    } else if (bids !== undefined) {
      const levels = e.side === "BUY" ? bids : asks;
      if (Number(e.size) === 0) levels.delete(String(Number(e.price)));
      if (Number(e.size) === 0) levels.delete(e.price ?? "");
      else levels.set(e.price ?? "", Number(e.size));
      last = Math.max(last, e.ts);
    }
  }
  if (bids === undefined) return undefined;
  const sorted = (levels: Map<string, number>, descending: boolean) =>
    [...levels].map(([p, s]) => ({ price: Number(p), size: s })).sort((a, b) => (descending ? b.price - a.price : a.price - b.price));
  return { bids: sorted(bids, true), asks: sorted(asks, false), timestamp: last };
}

const events = rawEvents();
let proKey: string;

beforeAll(async () => {
  await seedCatalog([
    makeEvent({}, [
      { venueMarketId: "m1", contractAddress: ids.M1.cond, outcomes: [{ outcomeId: ids.M1.yes, label: "Yes", price: 0.6, priceChange24h: 0 }, { outcomeId: ids.M1.no, label: "No", price: 0.4, priceChange24h: 0 }] },
      { venueMarketId: "m2", contractAddress: ids.M2.cond, outcomes: [{ outcomeId: ids.M2.yes, label: "Yes", price: 0.04, priceChange24h: 0 }, { outcomeId: ids.M2.no, label: "No", price: 0.96, priceChange24h: 0 }] },
      { venueMarketId: "k1", venue: "kalshi", contractAddress: null, outcomes: [{ outcomeId: "KX-YES", label: "Yes", price: 0.5, priceChange24h: 0 }] },
      { venueMarketId: "l1", venue: "limitless", contractAddress: null, outcomes: [{ outcomeId: "LM-YES", label: "Yes", price: 0.5, priceChange24h: 0 }] },
    ]),
  ]);
  const stores = await getTickStores();
  await stores.writer.command({ query: "TRUNCATE TABLE polymarket_orderbook_rust" });
  expect(await writeFrames(stores, fixtureFrames)).toBe(51);
  proKey = (await makeKey("pro")).key;
});

describe("order book at an instant", () => {
  it("equals an independent replay of the fixture frames at every event time, just before and just after it", async () => {
    expect(events.filter((e) => e.kind === "book")).toHaveLength(10);
    expect(events.some((e) => e.kind === "change" && Number(e.size) === 0)).toBe(true);
    const db = await getDb();
    const stamps = [...new Set(events.map((e) => e.ts))];
    const instants = [...new Set(stamps.flatMap((t) => [t - 1, t, t + 1]))].sort((a, b) => a - b);
    let compared = 0;
    let acrossSnapshots = 0;
    for (const asset of assets) {
      const firstBook = events.find((e) => e.asset === asset && e.kind === "book")?.ts ?? 0;
      for (const t of instants) {
        const expected = independentBook(events, asset, t);
        if (t < firstBook) {
          expect(expected).toBeUndefined();
          await expect(recordedBookAt(db, requestTickReader(), asset, { at: t, depth: MAX_DEPTH })).rejects.toMatchObject({ code: "not_found" });
          continue;
        }
        const book = await recordedBookAt(db, requestTickReader(), asset, { at: t, depth: MAX_DEPTH });
        expect({ bids: book.bids, asks: book.asks, timestamp: book.timestamp }, `${asset} at ${t}`).toEqual(expected);
        expect(book.source).toBe("recorded");
        expect(book.inSync).toBe(true);
        if (book.snapshotTimestamp > firstBook) acrossSnapshots += 1;
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(300);
    expect(acrossSnapshots).toBeGreaterThan(50);
  }, 180_000);

  it("a level set to 0 disappears; a later `book` replaces both sides", async () => {
    const db = await getDb();
    // Frame 2 removes M1 YES's best ask 0.62 (size 0).
    const before = await recordedBookAt(db, requestTickReader(), ids.M1.yes, { at: 1781352000787, depth: MAX_DEPTH });
    const after = await recordedBookAt(db, requestTickReader(), ids.M1.yes, { at: 1781352000788, depth: MAX_DEPTH });
    expect(before.asks[0]).toEqual({ price: 0.62, size: 455 });
    expect(after.asks.map((l) => l.price)).not.toContain(0.62);
    // The snapshot at 1781352002203 replaced the book: the rebuild starts there.
    const rebuilt = await recordedBookAt(db, requestTickReader(), ids.M1.yes, { at: 1781352002203, depth: MAX_DEPTH });
    expect(rebuilt.snapshotTimestamp).toBe(1781352002203);
    expect(rebuilt.timestamp).toBe(1781352002203);
  });

  it("serves the route with bids descending, asks ascending and depth, 404 for unknown or unrecorded outcomes, 400 naming the parameter", async () => {
    proKey = (await makeKey("pro")).key; // its own per-minute allowance
    const res = await callRoute(bookRoute, { path: `/v0/orderbooks/${ids.M2.yes}?at=2026-06-13T12:00:00Z&depth=2`, key: proKey, params: { outcomeId: ids.M2.yes } });
    expect(res.status).toBe(200);
    const data = (res.body as { data: { bids: Array<{ price: number }>; asks: Array<{ price: number }>; source: string; market: string } }).data;
    expect(data.source).toBe("recorded");
    expect(data.market).toBe(ids.M2.cond);
    expect(data.bids).toHaveLength(2);
    expect(data.bids[0]?.price).toBeGreaterThan(data.bids[1]?.price ?? 1);
    expect(data.asks[0]?.price).toBeLessThan(data.asks[1]?.price ?? 0);
    const final = await callRoute(bookRoute, { path: `/v0/orderbooks/${ids.M2.yes}`, key: proKey, params: { outcomeId: ids.M2.yes } });
    const finalBook = (final.body as { data: { bids: Array<{ price: number }>; asks: Array<{ price: number }> } }).data;
    expect(finalBook.bids[0]?.price).toBe(0.033);
    expect(finalBook.asks[0]?.price).toBe(0.039);

    for (const [query, parameter] of [
      ["at=yesterday", "at"],
      ["at=2026-06-13T12:00:00", "at"],
      ["depth=0", "depth"],
      ["depth=abc", "depth"],
      ["bogus=1", "bogus"],
      ["at=1&at=2", "at"],
    ] as const) {
      const bad = await callRoute(bookRoute, { path: `/v0/orderbooks/${ids.M1.yes}?${query}`, key: proKey, params: { outcomeId: ids.M1.yes } });
      expect(bad.status, query).toBe(400);
      expect((bad.body as { error: { code: string; parameter: string } }).error).toMatchObject({ code: "invalid_parameter", parameter });
    }
    const unknown = await callRoute(bookRoute, { path: "/v0/orderbooks/999", key: proKey, params: { outcomeId: "999" } });
    expect(unknown.status).toBe(404);
    const limitless = await callRoute(bookRoute, { path: "/v0/orderbooks/LM-YES", key: proKey, params: { outcomeId: "LM-YES" } });
    expect(limitless.status).toBe(404);
    expect(JSON.stringify(limitless.body)).toContain("not recorded");
    // Kalshi is recorded (kalshi_orderbook): with no rows of this market, no book at that instant.
    const kalshi = await callRoute(bookRoute, { path: "/v0/orderbooks/KX-YES", key: proKey, params: { outcomeId: "KX-YES" } });
    expect(kalshi.status).toBe(404);
    expect(JSON.stringify(kalshi.body)).toContain("No order book of 'KX-YES' was recorded");
    const bad = await callRoute(bookRoute, { path: "/v0/orderbooks/a%20b", key: proKey, params: { outcomeId: "a b" } });
    expect((bad.body as { error: { parameter: string } }).error.parameter).toBe("outcomeId");
  });
});

describe("order book history", () => {
  it("gives a book per grid point equal to the independent replay, oldest first, paged with a cursor", async () => {
    proKey = (await makeKey("pro")).key; // its own per-minute allowance
    const db = await getDb();
    const since = 1781351700000; // 2026-06-13T11:55:00Z, before the first book
    const until = 1781352060000;
    const all = await recordedBookHistory(db, requestTickReader(), ids.M1.yes, { since, until, interval: "1m", limit: HISTORY_DEFAULT_LIMIT, depth: HISTORY_DEFAULT_DEPTH });
    expect(all.meta.nextCursor).toBeNull();
    const grid = all.data.map((book) => book.at);
    expect(grid).toEqual([...grid].sort((a, b) => a - b));
    expect(grid.every((t) => t % 60_000 === 0)).toBe(true);
    // Grid points before the first book of the asset are skipped; every other point is there.
    const firstBook = events.find((e) => e.asset === ids.M1.yes && e.kind === "book")?.ts ?? 0;
    const expectedGrid: number[] = [];
    for (let t = since; t <= until; t += 60_000) if (t >= firstBook) expectedGrid.push(t);
    expect(grid).toEqual(expectedGrid);
    expect(grid).toHaveLength(3);
    for (const book of all.data) {
      expect({ bids: book.bids, asks: book.asks, timestamp: book.timestamp }).toEqual(independentBook(events, ids.M1.yes, book.at));
    }

    const page1 = await callRoute(historyRoute, {
      path: `/v0/orderbooks/${ids.M2.no}/history?since=${since}&until=${until}&interval=1m&limit=1`,
      key: proKey,
      params: { outcomeId: ids.M2.no },
    });
    expect(page1.status).toBe(200);
    const body1 = page1.body as { data: Array<{ at: number }>; meta: { nextCursor: string | null; limit: number } };
    expect(body1.meta.limit).toBe(1);
    expect(body1.meta.nextCursor).not.toBeNull();
    const seen: number[] = body1.data.map((b) => b.at);
    let cursor = body1.meta.nextCursor;
    while (cursor !== null) {
      const page = await callRoute(historyRoute, {
        path: `/v0/orderbooks/${ids.M2.no}/history?since=${since}&until=${until}&interval=1m&limit=1&cursor=${cursor}`,
        key: proKey,
        params: { outcomeId: ids.M2.no },
      });
      const body = page.body as { data: Array<{ at: number; bids: unknown; asks: unknown }>; meta: { nextCursor: string | null } };
      for (const book of body.data) {
        seen.push(book.at);
        const expected = independentBook(events, ids.M2.no, book.at);
        expect({ bids: book.bids, asks: book.asks }).toEqual({ bids: expected?.bids, asks: expected?.asks });
      }
      cursor = body.meta.nextCursor;
    }
    expect(seen).toEqual([1781351760000, 1781351820000, 1781351880000, 1781351940000, 1781352000000, 1781352060000]);
  });

  it("starts a window that opens long before the first recorded book at that book: no empty pages ahead of the data", async () => {
    proKey = (await makeKey("pro")).key; // its own per-minute allowance
    const firstBook = events.find((e) => e.asset === ids.M1.yes && e.kind === "book")?.ts ?? 0;
    const since = firstBook - 30 * 86_400_000; // a month before anything was recorded
    const until = firstBook + 5 * 60_000;
    const res = await callRoute(historyRoute, {
      path: `/v0/orderbooks/${ids.M1.yes}/history?since=${since}&until=${until}&interval=1m&limit=2`,
      key: proKey,
      params: { outcomeId: ids.M1.yes },
    });
    expect(res.status).toBe(200);
    const body = res.body as { data: Array<{ at: number }>; meta: { nextCursor: string | null; since: number } };
    expect(body.data.map((book) => book.at)).toEqual([Math.ceil(firstBook / 60_000) * 60_000, Math.ceil(firstBook / 60_000) * 60_000 + 60_000]);
    expect(body.meta.since).toBe(since);
    expect(body.meta.nextCursor).not.toBeNull();
    // A window with no book in it at all is one empty page, with no cursor to follow.
    const empty = await callRoute(historyRoute, {
      path: `/v0/orderbooks/${ids.M1.yes}/history?since=${since}&until=${since + 86_400_000}&interval=1m&limit=2`,
      key: proKey,
      params: { outcomeId: ids.M1.yes },
    });
    expect(empty.body).toMatchObject({ data: [], meta: { count: 0, nextCursor: null } });
  });

  it("refuses bad parameters naming them", async () => {
    proKey = (await makeKey("pro")).key; // its own per-minute allowance
    for (const [query, parameter] of [
      ["until=2026-06-13T12:00:00Z", "since"],
      ["since=2026-06-13T12:00:00Z&interval=2m", "interval"],
      ["since=2026-06-13T12:00:00Z&limit=1001", "limit"],
      ["since=2026-06-13T12:00:00Z&until=2026-06-13T11:00:00Z", "since"],
      ["since=2026-06-13T12:00:00Z&cursor=abc", "cursor"],
    ] as const) {
      const bad = await callRoute(historyRoute, { path: `/v0/orderbooks/${ids.M1.yes}/history?${query}`, key: proKey, params: { outcomeId: ids.M1.yes } });
      expect(bad.status, query).toBe(400);
      expect((bad.body as { error: { parameter: string } }).error.parameter).toBe(parameter);
    }
  });
});

describe("recorded trades", () => {
  it("lists last_trade_price events of the outcome newest first, paged by cursor without repeats", async () => {
    proKey = (await makeKey("pro")).key; // its own per-minute allowance
    const expected = fixtureFrames
      .map((line) => JSON.parse(line) as Obj | Obj[])
      .flatMap((parsed) => (Array.isArray(parsed) ? parsed : [parsed]))
      .filter((e) => e.event_type === "last_trade_price" && e.asset_id === ids.M2.yes)
      .map((e) => ({ id: e.transaction_hash, timestamp: Number(e.timestamp), price: Number(e.price), amount: Number(e.size), side: String(e.side).toLowerCase() }))
      .sort((a, b) => b.timestamp - a.timestamp);
    expect(expected).toHaveLength(2);
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const res = await callRoute(tradesRoute, {
        path: `/v0/trades/${ids.M2.yes}?since=2026-06-01T00:00:00Z&until=2026-07-01T00:00:00Z&limit=1${cursor === null ? "" : `&cursor=${cursor}`}`,
        key: proKey,
        params: { outcomeId: ids.M2.yes },
      });
      expect(res.status).toBe(200);
      const body = res.body as { data: Array<Record<string, unknown>>; meta: { nextCursor: string | null } };
      seen.push(...body.data.map(({ id, timestamp, price, amount, side }) => ({ id, timestamp, price, amount, side })));
      cursor = body.meta.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(expected);
    const none = await callRoute(tradesRoute, { path: `/v0/trades/${ids.M2.yes}?until=2026-06-13T12:00:00Z&since=2026-06-13T11:00:00Z`, key: proKey, params: { outcomeId: ids.M2.yes } });
    expect((none.body as { data: unknown[] }).data).toEqual([]);
    const bad = await callRoute(tradesRoute, { path: `/v0/trades/${ids.M2.yes}?limit=5000`, key: proKey, params: { outcomeId: ids.M2.yes } });
    expect((bad.body as { error: { parameter: string } }).error.parameter).toBe("limit");
  });
});

describeKeyedRoute({
  name: "GET /v0/trades/{outcomeId}",
  handler: tradesRoute,
  request: { path: `/v0/trades/${ids.M1.yes}`, params: { outcomeId: ids.M1.yes } },
  surface: "v0",
  plan: "pro",
});

describeKeyedRoute({
  name: "GET /v0/orderbooks/{outcomeId}",
  handler: bookRoute,
  request: { path: `/v0/orderbooks/${ids.M1.yes}`, params: { outcomeId: ids.M1.yes } },
  surface: "v0",
  plan: "pro",
});

describeKeyedRoute({
  name: "GET /v0/orderbooks/{outcomeId}/history",
  handler: historyRoute,
  request: { path: `/v0/orderbooks/${ids.M1.yes}/history?since=1781351700000&until=1781352060000`, params: { outcomeId: ids.M1.yes } },
  surface: "v0",
  plan: "pro",
});
