import { beforeAll, describe, expect, it } from "vitest";
import { GET as episodesRoute } from "@/app/v0/pairs/[a]/[b]/episodes/route";
import { GET as spreadsRoute } from "@/app/v0/pairs/[a]/[b]/spreads/route";
import { GET as matchesRoute } from "@/app/v0/markets/[id]/matches/route";
import { topOutcomeTokens } from "@/lib/catalog/assets";
import { getDb } from "@/lib/db";
import { topKalshiTickers } from "@/lib/recorder/kalshi/markets";
import { DEMO_PAIR, writeDemoPair, type DemoPairResult } from "@/lib/demo/pair";
import { recordResolutions } from "@/lib/outcomes/store";
import type { EpisodesResponse, SpreadsPage } from "@/lib/spreads/shapes";
import { getTickStores } from "@/lib/ticks";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const gapStart = now - 26 * 3_600_000;
let result: DemoPairResult;
let key: string;
const params = { a: DEMO_PAIR.polymarket.venueMarketId, b: DEMO_PAIR.kalshi.ticker };

beforeAll(async () => {
  result = await writeDemoPair(await getDb(), await getTickStores(), { days: 2, now });
  ({ key } = await makeKey("pro"));
}, 240_000);

async function spreads(query: string): Promise<SpreadsPage> {
  const res = await callRoute(spreadsRoute, { path: `/v0/pairs/${params.a}/${params.b}/spreads?${query}`, key, params });
  expect(res.status, res.text).toBe(200);
  return res.body as SpreadsPage;
}

describe("the SYNTHETIC demo pair", () => {
  it("is in the catalog on both venues and stored as an identity match", async () => {
    expect(result.polymarketRows).toBeGreaterThan(1000);
    expect(result.kalshiRows).toBeGreaterThan(1000);
    expect(result.dislocations).toBeGreaterThan(3);
    const res = await callRoute(matchesRoute, { path: `/v0/markets/${params.a}/matches`, key, params: { id: params.a } });
    expect(res.status, res.text).toBe(200);
    const body = res.body as { data: { matches: Array<{ relation: string; market: { exchange: string; venueMarketId: string } }> } };
    expect(body.data.matches.map((m) => [m.relation, m.market.exchange, m.market.venueMarketId])).toEqual([["identity", "kalshi", DEMO_PAIR.kalshi.ticker]]);
    // No venue lists them: neither recorder follows them.
    const db = await getDb();
    expect((await topOutcomeTokens(db, { exchange: "polymarket", limit: 100 })).map((t) => t.outcomeId)).not.toContain(DEMO_PAIR.polymarket.yes);
    expect(await topKalshiTickers(db, 100)).not.toContain(DEMO_PAIR.kalshi.ticker);
  });

  it("has uncrossed books on both venues at every change, and prices the pair as an identity", async () => {
    const page = await spreads(`since=${now - 6 * 3_600_000}&until=${now}&limit=5000`);
    expect(page.meta.pair.pricing).toBe("identity");
    expect(page.meta.pair.a.exchange).toBe("polymarket");
    expect(page.meta.pair.b.outcomeId).toBe(DEMO_PAIR.kalshi.ticker);
    const known = page.data.filter((p) => p.known);
    expect(known.length).toBeGreaterThan(100);
    for (const point of known) {
      expect(point.a?.bid ?? 0).toBeLessThan(point.a?.ask ?? 0);
      expect(point.b?.bid ?? 0).toBeLessThan(point.b?.ask ?? 0);
      // Net after fees never beats the top of the book.
      expect(point.net?.aToB.perContract ?? -1).toBeLessThanOrEqual(point.gross?.aToB ?? -1);
    }
  });

  it("reports the Kalshi recording gap as unknown, never interpolated, until its resubscription snapshot", async () => {
    const page = await spreads(`since=${gapStart - 60_000}&until=${gapStart + 40 * 60_000}&limit=5000`);
    const inside = page.data.filter((p) => p.t >= gapStart && p.t < gapStart + 30 * 60_000);
    expect(inside.length).toBeGreaterThan(0);
    for (const point of inside) {
      expect(point.known).toBe(false);
      expect(point.unknown?.b).toBe("not_recorded");
      expect(point.b).toBeNull();
      expect(point.net).toBeNull();
      expect(point.a).not.toBeNull();
    }
    expect(page.data.some((p) => p.t >= gapStart + 30 * 60_000 && p.known)).toBe(true);
  });

  it("finds the executable stretches as episodes, with the day's summary, and minSpread keeps only those instants", async () => {
    const res = await callRoute(episodesRoute, { path: `/v0/pairs/${params.a}/${params.b}/episodes?since=${now - 86_400_000}&until=${now}&size=50`, key, params });
    expect(res.status, res.text).toBe(200);
    const body = res.body as EpisodesResponse;
    expect(body.data.episodes.length).toBeGreaterThan(0);
    const episode = body.data.episodes[0];
    if (episode === undefined) throw new Error("no episode");
    expect(episode.direction).toBe("aToB");
    expect(episode.peak).toBeGreaterThan(0);
    expect(episode.sizeAtPeak).toBeGreaterThanOrEqual(50);
    expect(episode.durationMs).toBe(episode.end - episode.start);
    expect(body.data.days.reduce((n, d) => n + d.episodes, 0)).toBe(body.meta.count);
    // The same instants from the series: every point of the episode is above 0 after fees.
    const page = await spreads(`since=${episode.start}&until=${episode.end - 1}&size=50&minSpread=0.000001&limit=5000`);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data[0]?.t).toBe(episode.start);
    expect(Math.max(...page.data.map((p) => p.best ?? -1))).toBe(episode.peak);
  });

  it("pages the episodes with a cursor: the pages together are the whole list, the day summary the same on each", async () => {
    const path = `/v0/pairs/${params.a}/${params.b}/episodes?since=${now - 86_400_000}&until=${now}&size=50`;
    const whole = (await callRoute(episodesRoute, { path: `${path}&limit=1000`, key, params })).body as EpisodesResponse;
    expect(whole.meta.count).toBeGreaterThan(2);
    expect(whole.meta.nextCursor).toBeNull();
    const limit = Math.ceil(whole.meta.count / 3);
    const listed: EpisodesResponse["data"]["episodes"] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await callRoute(episodesRoute, { path: `${path}&limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`, key, params });
      expect(res.status, res.text).toBe(200);
      const body = res.body as EpisodesResponse;
      expect(body.data.days).toEqual(whole.data.days);
      expect(body.meta.count).toBe(whole.meta.count);
      listed.push(...body.data.episodes);
      cursor = body.meta.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(listed).toEqual(whole.data.episodes);
    expect(pages).toBe(Math.ceil(whole.meta.count / limit));
    const bad = await callRoute(episodesRoute, { path: `${path}&cursor=not-a-cursor`, key, params });
    expect(bad.status).toBe(400);
  }, 180_000);

  it("pages the series with a cursor, without repeating or skipping an instant", async () => {
    const since = now - 3_600_000;
    const whole = await spreads(`since=${since}&until=${now}&limit=5000`);
    const first = await spreads(`since=${since}&until=${now}&limit=10`);
    expect(first.meta.nextCursor).not.toBeNull();
    const second = await spreads(`since=${since}&until=${now}&limit=10&cursor=${first.meta.nextCursor}`);
    expect([...first.data, ...second.data]).toEqual(whole.data.slice(0, 20));
  });

  it("answers a 1 s grid with one point per second", async () => {
    const since = now - 600_000;
    const page = await spreads(`since=${since}&until=${since + 59_000}&interval=1s`);
    expect(page.data.map((p) => p.t)).toEqual(Array.from({ length: 60 }, (_, i) => since + i * 1000));
  });

  // Last: it records the Kalshi market's close, which every later answer would show.
  it("ends an open episode at a market's close with `resolution`, and prices nothing after it", async () => {
    const path = `/v0/pairs/${params.a}/${params.b}/episodes?since=${now - 86_400_000}&until=${now}&size=50&limit=1000`;
    const before = (await callRoute(episodesRoute, { path, key, params })).body as EpisodesResponse;
    const open = before.data.episodes.find((e) => e.endedBy === "below_threshold" && e.durationMs > 2_000);
    expect(open).toBeDefined();
    const episode = open ?? before.data.episodes[0];
    if (episode === undefined) return;
    // Trading on Kalshi stops halfway through that episode; the result comes an hour later.
    const closedAt = episode.start + Math.floor(episode.durationMs / 2);
    const { writer } = await getTickStores();
    await recordResolutions(await getDb(), writer, [
      {
        venue: "kalshi",
        venueMarketId: DEMO_PAIR.kalshi.ticker,
        market: DEMO_PAIR.kalshi.ticker,
        outcomeIds: [DEMO_PAIR.kalshi.ticker, `${DEMO_PAIR.kalshi.ticker}-NO`],
        state: "determined",
        venueState: "determined",
        winningOutcomeId: DEMO_PAIR.kalshi.ticker,
        settlementValue: 1,
        closedAt: new Date(closedAt),
        determinedAt: new Date(closedAt + 3_600_000),
        venueTime: new Date(closedAt + 3_600_000),
        receivedAt: new Date(closedAt + 3_600_000),
        source: "rest",
        resolutionSource: null,
        raw: "{}",
      },
    ]);
    const after = (await callRoute(episodesRoute, { path, key, params })).body as EpisodesResponse;
    // Before the close nothing changed; the episode open at the close ends there; none starts after it.
    expect(after.data.episodes.filter((e) => e.end < closedAt)).toEqual(before.data.episodes.filter((e) => e.end < closedAt));
    const cut = after.data.episodes.filter((e) => e.start === episode.start);
    expect(cut.length).toBeGreaterThan(0);
    for (const e of cut) expect(e).toMatchObject({ end: closedAt, endedBy: "resolution", durationMs: closedAt - episode.start });
    expect(after.data.episodes.filter((e) => e.start >= closedAt)).toEqual([]);
    expect(after.data.days.reduce((n, d) => n + d.executableMs, 0)).toBeLessThan(before.data.days.reduce((n, d) => n + d.executableMs, 0));

    const page = await spreads(`since=${closedAt - 60_000}&until=${closedAt + 600_000}&limit=5000`);
    expect(page.meta.pair.b.settlement).toMatchObject({ state: "determined", pays: 1, closedAt });
    const later = page.data.filter((p) => p.t >= closedAt);
    expect(later[0]?.t).toBe(closedAt);
    expect(later.length).toBeGreaterThan(1);
    for (const point of later) expect(point).toMatchObject({ known: false, unknown: { b: "market_closed" }, net: null, best: null });
    expect(page.data.some((p) => p.t < closedAt && p.known)).toBe(true);
    const grid = await spreads(`since=${closedAt - 60_000}&until=${closedAt + 600_000}&interval=10s`);
    expect(grid.data.filter((p) => p.t >= closedAt).every((p) => !p.known && p.unknown?.b === "market_closed")).toBe(true);
    // One venue's payout stated: the close is not known yet.
    expect(page.meta.pair.a.settlement).toBeNull();
    expect(page.meta.pair.closed).toBeNull();

    // Polymarket settles the other way: both settlements, and how the spread closed (long A, short B was paid 0 − 1).
    await recordResolutions(await getDb(), writer, [
      {
        venue: "polymarket",
        venueMarketId: DEMO_PAIR.polymarket.venueMarketId,
        market: DEMO_PAIR.polymarket.venueMarketId,
        outcomeIds: [DEMO_PAIR.polymarket.yes, DEMO_PAIR.polymarket.no],
        state: "settled",
        venueState: "resolved",
        winningOutcomeId: DEMO_PAIR.polymarket.no,
        settlementValue: null,
        closedAt: new Date(closedAt + 60_000),
        settledAt: new Date(closedAt + 7_200_000),
        venueTime: new Date(closedAt + 7_200_000),
        receivedAt: new Date(closedAt + 7_200_000),
        source: "rest",
        resolutionSource: null,
        raw: "{}",
      },
    ]);
    const settled = await spreads(`since=${closedAt - 60_000}&until=${closedAt + 600_000}&limit=10`);
    expect(settled.meta.pair.a.settlement).toMatchObject({ state: "settled", winningOutcomeId: DEMO_PAIR.polymarket.no, pays: 0, settledAt: closedAt + 7_200_000 });
    expect(settled.meta.pair.b.settlement).toMatchObject({ state: "determined", pays: 1 });
    expect(settled.meta.pair.closed).toEqual({ aPays: 0, bPays: 1, difference: -1 });
  }, 120_000);
});
