import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { firstBookAfter, lastBookAtOrBefore, lastBooksAtOrBefore } from "@/lib/history/ticks";
import { recorderIncidents, recorderRuns } from "@/lib/db/schema";
import { journalWindow, journalWithin } from "@/lib/history/journal";
import { DEMO_PAIR, DEMO_PAIR_CONDITION, writeDemoPair } from "@/lib/demo/pair";
import { parseQuery } from "@/lib/input";
import { runMode } from "@/lib/recorder/journal";
import { insertTickRows } from "@/lib/recorder/writer";
import { normalizeFrame } from "@/lib/recorder/polymarket/normalize";
import { SpreadDayCache } from "@/lib/spreads/day-cache";
import { EpisodeFolder } from "@/lib/spreads/episodes";
import { priceSeries } from "@/lib/spreads/series";
import { foldDaysAhead, foldPairDaysAhead, getPairEpisodes, getPairSpreads, pairInputs, resolvePricedPair } from "@/lib/spreads/service";
import { episodesQuery, spreadsQuery, type SpreadPoint } from "@/lib/spreads/shapes";
import { getTickStores, requestTickReader } from "@/lib/ticks";
import { recordedVenueTables } from "@/lib/ticks/published";

/**
 * Closed days kept (docs/spreads.md, "Closed days"): a window that holds closed UTC days answers
 * its episodes, days and kept grids from the day folds joined with the replayed stretches around
 * them, exactly what one replay of the whole window answers; a kept day is used again only while
 * its inputs hold: a late row in the day or a lost connection recorded later folds it again.
 */

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const A = DEMO_PAIR.polymarket.venueMarketId;
const B = DEMO_PAIR.kalshi.ticker;
/** The closed day inside the windows below (the demo's four days end at NOW). */
const CLOSED = Date.UTC(2026, 10, 23);

beforeAll(async () => {
  await writeDemoPair(await getDb(), await getTickStores(), { days: 4, now: NOW });
}, 240_000);

/** One replay of the whole window: every point, its episodes and days, as before closed days were kept. */
async function oneReplay(since: number, until: number, step?: number, size = 100) {
  const db = await getDb();
  const pair = await resolvePricedPair(db, A, B, undefined, NOW, {});
  const [a, b, rows] = await pairInputs(db, requestTickReader(), pair, since, until, NOW);
  const points: SpreadPoint[] = [];
  const folder = new EpisodeFolder(since, until, 0);
  for await (const batch of priceSeries(a, b, rows, { since, until, step, size, threshold: 0, initial: true })) {
    for (const point of batch) {
      points.push(point);
      if (step === undefined) folder.add(point);
    }
  }
  return { points, ...folder.finish() };
}

async function answers(since: number, until: number, cache: SpreadDayCache, size = 100) {
  const db = await getDb();
  const episodes = await getPairEpisodes(db, requestTickReader(), A, B, parseQuery(episodesQuery, new URLSearchParams({ since: String(since), until: String(until), size: String(size), limit: "1000" })), NOW, {}, cache);
  const grid = await getPairSpreads(db, requestTickReader(), A, B, parseQuery(spreadsQuery, new URLSearchParams({ since: String(since), until: String(until), size: String(size), interval: "5m", limit: "5000" })), NOW, {}, cache);
  return { episodes: episodes.data, count: episodes.meta.count, grid: grid.data };
}

/** Both of the pair page's calls at once, as the page asks them: /episodes folds the closed days newest first, /spreads oldest first. */
async function answersAtOnce(since: number, until: number, cache: SpreadDayCache, size = 100) {
  const db = await getDb();
  const [episodes, grid] = await Promise.all([
    getPairEpisodes(db, requestTickReader(), A, B, parseQuery(episodesQuery, new URLSearchParams({ since: String(since), until: String(until), size: String(size), limit: "1000" })), NOW, {}, cache),
    getPairSpreads(db, requestTickReader(), A, B, parseQuery(spreadsQuery, new URLSearchParams({ since: String(since), until: String(until), size: String(size), interval: "5m", limit: "5000" })), NOW, {}, cache),
  ]);
  return { episodes: episodes.data, count: episodes.meta.count, grid: grid.data };
}

async function expectOneReplay(since: number, until: number, cache: SpreadDayCache, ask = answers, size = 100) {
  const got = await ask(since, until, cache, size);
  const whole = await oneReplay(since, until, undefined, size);
  const grid = await oneReplay(since, until, 300_000, size);
  expect(got.episodes.days).toEqual(whole.days);
  expect(got.episodes.episodes).toEqual(whole.episodes);
  expect(got.count).toBe(whole.episodes.length);
  expect(got.grid).toEqual(grid.points);
  return got;
}

describe("closed UTC days kept", () => {
  const windows: Array<[string, number, number]> = [
    ["two days to now", NOW - 47 * HOUR, NOW],
    ["opening mid-day, ending before now", NOW - 36 * HOUR - 7 * 60_000 - 123, NOW - HOUR],
    ["opening at the closed day's start", CLOSED, NOW],
  ];
  for (const [name, since, until] of windows) {
    it(`answers as one replay of the window does (${name}), folded once, then kept`, async () => {
      const cache = new SpreadDayCache();
      const cold = await expectOneReplay(since, until, cache);
      expect(cache.folded).toBe(1);
      expect(cold.episodes.episodes.length).toBeGreaterThan(0);
      const warm = await expectOneReplay(since, until, cache);
      expect(cache.folded).toBe(1);
      expect(warm).toEqual(cold);
    }, 240_000);
  }

  it("answers as one replay does when the page's two calls fold several closed days at once, then keeps them", async () => {
    const cache = new SpreadDayCache();
    // Three closed days (Nov 21, 22, 23) between a partial head and the tail to now.
    const since = NOW - 4 * DAY + 5 * HOUR + 321;
    const cold = await expectOneReplay(since, NOW, cache, answersAtOnce);
    expect(cache.size).toBe(3);
    // One fold of the window for both calls: each closed day folded once, the partial day before and after them replayed once.
    expect(cache.folded).toBe(3);
    expect(cache.replayed).toBe(2);
    expect(cold.episodes.days.length).toBe(5);
    const warm = await expectOneReplay(since, NOW, cache, answersAtOnce);
    expect(cache.folded).toBe(3);
    expect(cache.replayed).toBe(4);
    expect(warm).toEqual(cold);
  }, 240_000);

  it("folds the latest pairs' closed days ahead, as the pair page names the pair and for its size: the page's first 7-day view folds none", async () => {
    const cache = new SpreadDayCache();
    const db = await getDb();
    const pairs = await foldDaysAhead(db, requestTickReader(), NOW, cache);
    expect(pairs.map((pair) => [pair.a.venueMarketId, pair.b.venueMarketId])).toEqual([[A, B]]);
    expect(cache.folded).toBe(6);
    expect(cache.size).toBe(6);
    await expectOneReplay(NOW - 7 * DAY, NOW, cache, answersAtOnce);
    expect(cache.folded).toBe(6);
    // Again: the kept days hold, nothing is folded.
    await foldDaysAhead(db, requestTickReader(), NOW, cache);
    expect(cache.folded).toBe(6);
  }, 240_000);

  it("folds a pair's closed days ahead when its page opens, by the names the page was opened with: its first 7-day view folds none", async () => {
    const cache = new SpreadDayCache();
    const db = await getDb();
    await foldPairDaysAhead(db, requestTickReader(), A, B, NOW, cache);
    expect(cache.folded).toBe(6);
    expect(cache.size).toBe(6);
    await expectOneReplay(NOW - 7 * DAY, NOW, cache, answersAtOnce);
    expect(cache.folded).toBe(6);
    // Its page opened again within 15 minutes: not asked again; after them, asked (a day may have closed).
    const pair = JSON.stringify([A, B]);
    expect(cache.askAhead(pair, NOW)).toBe(true);
    expect(cache.askAhead(pair, NOW + 14 * 60_000)).toBe(false);
    expect(cache.askAhead(JSON.stringify([B, A]), NOW + 14 * 60_000)).toBe(true);
    expect(cache.askAhead(pair, NOW + 15 * 60_000)).toBe(true);
  }, 240_000);

  it("folds another size from the kept days' rows, read from the engine once, as one replay at that size answers", async () => {
    const cache = new SpreadDayCache();
    const since = NOW - 4 * DAY + 5 * HOUR + 321;
    await expectOneReplay(since, NOW, cache, answersAtOnce);
    expect(cache.folded).toBe(3);
    expect(cache.read).toBe(3);
    expect(cache.rowsKept).toBeGreaterThan(3 * 1_000);
    expect(cache.rowRoomKept).toBe(cache.rowsKept);
    const at100 = await answers(since, NOW, cache);
    // A thin size and a deep one (walks past the levels a point reads): each day folded again, no row read again.
    for (const [i, size] of [37, 2_500].entries()) {
      const got = await expectOneReplay(since, NOW, cache, answersAtOnce, size);
      expect(cache.folded).toBe(3 + 3 * (i + 1));
      expect(cache.read).toBe(3);
      expect(got.grid).not.toEqual(at100.grid);
    }
  }, 240_000);

  it("replays the window's partial days from their kept rows at another size, as one replay at that size answers, and reads them again once a late row lands", async () => {
    const cache = new SpreadDayCache();
    // A partial head (Nov 20, 17:00 on), three closed days, a partial tail (Nov 24 to noon).
    const since = NOW - 4 * DAY + 5 * HOUR + 321;
    await expectOneReplay(since, NOW, cache, answersAtOnce);
    expect([cache.read, cache.partialRead, cache.replayed]).toEqual([3, 2, 2]);
    expect(cache.partialRowsKept).toBeGreaterThan(1_000);
    const at100 = await answers(since, NOW, cache);
    expect(cache.partialRead).toBe(2);
    // At a new size: no part read from the engine again, both calls still one fold.
    const at137 = await expectOneReplay(since, NOW, cache, answersAtOnce, 137);
    expect([cache.read, cache.partialRead, cache.replayed]).toEqual([3, 2, 8]);
    expect(at137.grid).not.toEqual(at100.grid);
    // A late Kalshi snapshot in the tail: its kept rows no longer hold, it is read again (the closed days are not).
    const at = NOW - 5 * HOUR + 4_321;
    const levels = (from: number) => Array.from({ length: 5 }, (_, i) => [((from + i) / 100).toFixed(2), "300"]);
    const data = JSON.stringify({ asset_id: B, bids: levels(25), asks: levels(85), hash: "", tick_size: "0.01" });
    const { writer } = await getTickStores();
    await insertTickRows(writer, [{ timestampMs: at, receivedMs: NOW, market: B, eventType: "book", data }], recordedVenueTables.kalshi);
    await expectOneReplay(since, NOW, cache, answersAtOnce, 174);
    expect([cache.read, cache.partialRead]).toEqual([3, 3]);
  }, 240_000);

  it("keeps the partial days' rows within a quarter of the limit, the closed days' rows within the limit", async () => {
    const cache = new SpreadDayCache(96, 160_000);
    for (const since of [NOW - 4 * DAY + 5 * HOUR, NOW - 4 * DAY + 7 * HOUR, NOW - 4 * DAY + 9 * HOUR]) {
      await expectOneReplay(since, NOW - HOUR, cache, answersAtOnce);
      expect(cache.partialRowsKept).toBeGreaterThan(0);
      expect(cache.partialRowsKept).toBeLessThanOrEqual(40_000);
      expect(cache.rowsKept).toBeLessThanOrEqual(160_000);
      // Each kept batch trimmed to its rows: the limit bounds the columns kept, not only the rows counted.
      expect(cache.rowRoomKept).toBe(cache.rowsKept);
    }
  }, 240_000);

  it("keeps no rows of a day past its limit, and reads such a day again at another size", async () => {
    const cache = new SpreadDayCache(96, 4);
    const since = NOW - 47 * HOUR;
    await expectOneReplay(since, NOW, cache);
    expect(cache.rowsKept).toBe(0);
    await expectOneReplay(since, NOW, cache, answers, 250);
    expect(cache.read).toBe(2);
  }, 240_000);

  it("a window asked while the fold ahead runs takes the days it has not started and waits for the others: each day folded once", async () => {
    const cache = new SpreadDayCache();
    const db = await getDb();
    const ahead = foldDaysAhead(db, requestTickReader(), NOW, cache);
    await expectOneReplay(NOW - 7 * DAY, NOW, cache, answersAtOnce);
    await ahead;
    expect(cache.folded).toBe(6);
    expect(cache.read).toBe(6);
    expect(cache.size).toBe(6);
  }, 240_000);

  it("looks up the last snapshot at or before several instants in one read, as one lookup each does", async () => {
    const db = await getDb();
    const pair = await resolvePricedPair(db, A, B, undefined, NOW, {});
    const reader = requestTickReader();
    for (const side of [pair.a, pair.b]) {
      const first = await firstBookAfter(reader, side.source, side.outcomeId, NOW - 30 * DAY, NOW);
      expect(first).toBeDefined();
      const at = [NOW - 30 * DAY, CLOSED, first ?? 0, (first ?? 0) - 1, CLOSED + 7 * HOUR + 333, NOW - 1, NOW];
      const one = await Promise.all(at.map((t) => lastBookAtOrBefore(reader, side.source, side.outcomeId, t)));
      expect(one[0]).toBeUndefined();
      expect(one[2]).toBe(first);
      expect(new Set(one).size).toBeGreaterThan(3);
      expect(await lastBooksAtOrBefore(reader, side.source, side.outcomeId, at)).toEqual(one);
    }
  });

  it("folds again only the kept day a late row lands in, among several (each day's row count checked in one query)", async () => {
    const cache = new SpreadDayCache();
    const since = NOW - 4 * DAY + 5 * HOUR + 321;
    await expectOneReplay(since, NOW, cache);
    expect(cache.folded).toBe(3);
    // A late Polymarket snapshot in the middle closed day (Nov 22).
    const at = CLOSED - DAY + 9 * HOUR + 4_321;
    const levels = (from: number, descending: boolean) => Array.from({ length: 5 }, (_, i) => ({ price: ((descending ? from + 4 - i : from + i) / 100).toFixed(2), size: "700" }));
    const frame = JSON.stringify([{ market: DEMO_PAIR_CONDITION, asset_id: DEMO_PAIR.polymarket.yes, timestamp: String(at), hash: "", bids: levels(15, false), asks: levels(92, true), tick_size: "0.01", event_type: "book" }]);
    const { rows } = normalizeFrame(frame, at);
    expect(rows.length).toBe(1);
    const { writer } = await getTickStores();
    await insertTickRows(writer, rows, recordedVenueTables.polymarket);
    await expectOneReplay(since, NOW, cache);
    expect(cache.folded).toBe(4);
  }, 240_000);

  it("folds a kept day again when a late row lands in it, or a lost connection is recorded in it later", async () => {
    const cache = new SpreadDayCache();
    const since = NOW - 47 * HOUR;
    await expectOneReplay(since, NOW, cache);
    expect(cache.folded).toBe(1);

    // A late Kalshi snapshot in the closed day: a book that moves the spread.
    const at = CLOSED + 15 * HOUR + 1_234;
    const levels = (from: number) => Array.from({ length: 5 }, (_, i) => [((from + i) / 100).toFixed(2), "500"]);
    const data = JSON.stringify({ asset_id: B, bids: levels(20), asks: levels(90), hash: "", tick_size: "0.01" });
    const { writer } = await getTickStores();
    await insertTickRows(writer, [{ timestampMs: at, receivedMs: NOW, market: B, eventType: "book", data }], recordedVenueTables.kalshi);
    await expectOneReplay(since, NOW, cache);
    expect(cache.folded).toBe(2);

    // The journal learns of a lost Polymarket connection in the closed day.
    const db = await getDb();
    const runId = randomUUID();
    await db.insert(recorderRuns).values({ id: runId, host: "days-test", pid: 1, mode: runMode("in-process", "polymarket"), startedAt: new Date(CLOSED + 3 * HOUR), beatAt: new Date(CLOSED + 4 * HOUR), stoppedAt: new Date(CLOSED + 4 * HOUR), counters: {} });
    await db.insert(recorderIncidents).values({ runId, kind: "connection_lost", startedAt: new Date(CLOSED + 3 * HOUR + 60_000), endedAt: new Date(CLOSED + 3 * HOUR + 120_000), assets: [DEMO_PAIR.polymarket.yes], message: "late", detail: {} });
    const after = await expectOneReplay(since, NOW, cache);
    expect(cache.folded).toBe(3);
    expect(after.episodes.days.find((d) => d.day === "2026-11-23")?.knownAMs).toBeLessThan(DAY);
  }, 240_000);

  it("takes each part's journal from one read of the whole window: the same runs and incidents as a read of the part", async () => {
    const db = await getDb();
    const assets = [DEMO_PAIR.polymarket.yes, B];
    // The demo's synthetic runs, its lost Kalshi connection, and the stopped run with a lost connection written above.
    const wide = await journalWindow(db, NOW - 6 * DAY, NOW + HOUR, assets);
    expect(wide.runs.length).toBeGreaterThan(2);
    expect(wide.incidents.filter((incident) => incident.kind === "connection_lost").length).toBeGreaterThan(1);
    const ids = (window: { runs: { id: string }[]; incidents: { id: string }[] }) => ({ runs: window.runs.map((run) => run.id).sort(), incidents: window.incidents.map((incident) => incident.id) });
    const bounds = [NOW - 6 * DAY, CLOSED - DAY, CLOSED, CLOSED + 3 * HOUR, CLOSED + 3 * HOUR + 90_000, CLOSED + 4 * HOUR, CLOSED + 4 * HOUR + 1, NOW - 26 * HOUR, NOW - 25 * HOUR, NOW, NOW + HOUR];
    let differ = 0;
    for (const since of bounds) {
      for (const until of bounds.filter((t) => t > since)) {
        const own = ids(await journalWindow(db, since, until, assets));
        expect(ids(journalWithin(wide, since, until))).toEqual(own);
        if (own.runs.length < wide.runs.length || own.incidents.length < wide.incidents.length) differ += 1;
      }
    }
    // Most of the windows hold less than the whole: the narrowing is tested, not only the whole.
    expect(differ).toBeGreaterThan(20);
  }, 240_000);
});
