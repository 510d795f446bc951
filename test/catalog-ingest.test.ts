import { and, eq, getTableColumns } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventUuid, marketUuid } from "@/lib/catalog/ids";
import { ingestVenues, type IngestOptions, type IngestProgress } from "@/lib/catalog/ingest";
import { getDb } from "@/lib/db";
import { events, ingestLeases, ingestRuns, marketQuotes, marketRanks, markets } from "@/lib/db/schema";
import { createExchange } from "@/lib/venues/factory";
import { createFakeVenues, FIXTURE_IDS, GAMMA_HOST, type JsonObject } from "./fakes/venue-server";

// Real pmxt-core fetchers against the loopback fake venues, through lib/venues/factory's redirect.
const fake = createFakeVenues();

const options = (extra: IngestOptions = {}): IngestOptions => ({
  trigger: "test",
  attempts: 2,
  backoffMs: 20,
  attemptTimeoutMs: 1500,
  exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
  ...extra,
});

/** A market's row with its 24-hour volume rank key (`market_ranks`). */
const rankedMarket = { ...getTableColumns(markets), volume24h: marketRanks.volume24h };

async function marketRow(venue: string, venueMarketId: string) {
  const db = await getDb();
  const [row] = await db
    .select(rankedMarket)
    .from(markets)
    .innerJoin(marketRanks, eq(marketRanks.id, markets.id))
    .where(and(eq(markets.venue, venue), eq(markets.venueMarketId, venueMarketId)));
  return row;
}

async function countMarkets(venue: string): Promise<number> {
  const db = await getDb();
  return (await db.select({ id: markets.id }).from(markets).where(eq(markets.venue, venue))).length;
}

beforeAll(async () => {
  await fake.listen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  fake.reset();
  const db = await getDb();
  await db.delete(markets);
  await db.delete(events);
  await db.delete(ingestRuns);
  await db.delete(ingestLeases);
});

describe("catalog ingestion from the fake venues", () => {
  it("stores Polymarket markets with UUID v5 ids, categories, CLOB token outcome ids and condition ids", async () => {
    const [summary] = await ingestVenues(await getDb(), options({ venues: ["polymarket"] }));
    expect(summary).toMatchObject({ venue: "polymarket", outcome: "succeeded", eventsSeen: 3, marketsSeen: 5, attempts: 1 });

    const fed = await marketRow("polymarket", "681204");
    expect(fed).toBeDefined();
    expect(fed?.id).toBe(marketUuid("polymarket", "681204"));
    expect(fed?.eventId).toBe(eventUuid("polymarket", "41873"));
    expect(fed?.contractAddress).toBe(FIXTURE_IDS.M1?.cond);
    expect(fed?.outcomeIds).toEqual([FIXTURE_IDS.M1?.yes, FIXTURE_IDS.M1?.no]);
    // What describes the outcome is in markets, its price in the market's quote.
    expect(fed?.outcomes[0]).toEqual({ outcomeId: FIXTURE_IDS.M1?.yes, label: "No change" });
    const [quote] = await (await getDb()).select().from(marketQuotes).where(eq(marketQuotes.id, fed?.id ?? ""));
    expect(quote?.outcomes[0]).toMatchObject({ outcomeId: FIXTURE_IDS.M1?.yes, label: "No change", price: 0.615 });
    expect(fed?.category).toBe("Economics");
    expect(fed?.closed).toBe(false);

    const db = await getDb();
    const stored = await db.select().from(markets).where(eq(markets.venue, "polymarket"));
    const conditionIds = Object.values(FIXTURE_IDS)
      .map((m) => (m as { cond?: string }).cond)
      .filter((c): c is string => c !== undefined);
    for (const row of stored) expect(conditionIds).toContain(row.contractAddress);
    const categories = Object.fromEntries(stored.map((r) => [r.venueMarketId, r.category]));
    expect(new Set(Object.values(categories))).toEqual(new Set(["Economics", "Crypto", "Sports"]));

    const [run] = await db.select().from(ingestRuns);
    expect(run).toMatchObject({ venue: "polymarket", outcome: "succeeded", marketsSeen: 5, eventsSeen: 3, error: null });
    expect(run?.finishedAt).toBeInstanceOf(Date);
  });

  it("stores Kalshi markets with ticker outcome ids and series categories, across cursor pages", async () => {
    fake.data.kalshiPageSize = 1;
    const [summary] = await ingestVenues(await getDb(), options({ venues: ["kalshi"] }));
    expect(summary).toMatchObject({ outcome: "succeeded", eventsSeen: 2, marketsSeen: 4 });
    expect(fake.requestsTo("api.elections.kalshi.com/trade-api/v2/events").length).toBe(2);
    const hold = await marketRow("kalshi", "KXFEDDECISION-27MAR-H0");
    expect(hold?.id).toBe(marketUuid("kalshi", "KXFEDDECISION-27MAR-H0"));
    expect(hold?.outcomeIds).toEqual(["KXFEDDECISION-27MAR-H0", "KXFEDDECISION-27MAR-H0-NO"]);
    expect(hold?.category).toBe("Economics");
    expect(hold?.volume24h).toBe(31280);
    const db = await getDb();
    const cats = await db.select({ category: markets.category }).from(markets).where(eq(markets.venue, "kalshi"));
    expect(new Set(cats.map((c) => c.category))).toEqual(new Set(["Economics", "Weather"]));
  });

  it("ingests the mock venue offline, with a contract address on every market", async () => {
    const [summary] = await ingestVenues(await getDb(), options({ venues: ["mock"] }));
    expect(summary?.outcome).toBe("succeeded");
    expect(summary?.marketsSeen).toBeGreaterThan(10);
    const db = await getDb();
    const rows = await db.select().from(markets).where(eq(markets.venue, "mock"));
    expect(rows.length).toBe(summary?.marketsSeen);
    for (const row of rows) {
      expect(row.contractAddress).toBeTruthy();
      expect(row.outcomeIds.length).toBeGreaterThan(0);
      expect(row.category).not.toBe("");
    }
  });

  it("keeps every id stable across two ingestions", async () => {
    const db = await getDb();
    await ingestVenues(db, options({ venues: ["polymarket", "kalshi", "mock"] }));
    const snapshot = async () =>
      (await db.select({ id: markets.id, venue: markets.venue, v: markets.venueMarketId, e: markets.eventId }).from(markets))
        .map((r) => `${r.venue}|${r.v}|${r.id}|${r.e}`)
        .sort();
    const first = await snapshot();
    fake.data.gammaEvents.reverse();
    await ingestVenues(db, options({ venues: ["polymarket", "kalshi", "mock"] }));
    expect(await snapshot()).toEqual(first);
    expect(first.length).toBeGreaterThan(9);
  });

  it.each([
    ["answers 500", { kind: "status", status: 500 } as const],
    ["times out", { kind: "hang" } as const],
    ["sends garbage", { kind: "garbage" } as const],
  ])("when Polymarket %s, Kalshi still succeeds and nothing stored is lost", async (_label, mode) => {
    const db = await getDb();
    await ingestVenues(db, options({ venues: ["polymarket", "kalshi"] }));
    const before = await db.select(rankedMarket).from(markets).innerJoin(marketRanks, eq(marketRanks.id, markets.id)).orderBy(markets.id);
    expect(before.length).toBe(9);

    fake.fail(GAMMA_HOST, mode);
    fake.data.kalshiEvents = fake.data.kalshiEvents.map((e) => ({
      ...e,
      markets: ((e.markets ?? []) as JsonObject[]).map((m) => ({ ...m, volume_24h_fp: "99999.00" })),
    }));
    const started = Date.now();
    const summaries = await ingestVenues(db, options({ venues: ["polymarket", "kalshi"] }));
    const byVenue = Object.fromEntries(summaries.map((s) => [s.venue, s]));
    expect(byVenue.polymarket?.outcome).toBe("failed");
    expect(byVenue.polymarket?.attempts).toBe(2);
    expect(byVenue.polymarket?.error).toBeTruthy();
    expect(byVenue.kalshi?.outcome).toBe("succeeded");
    expect(byVenue.kalshi?.durationMs).toBeLessThan(Date.now() - started + 1);

    const after = await db.select(rankedMarket).from(markets).innerJoin(marketRanks, eq(marketRanks.id, markets.id)).orderBy(markets.id);
    expect(after.length).toBe(before.length);
    const pmBefore = before.filter((m) => m.venue === "polymarket");
    const pmAfter = after.filter((m) => m.venue === "polymarket");
    expect(pmAfter.map(({ lastSeenAt: _l, ...rest }) => rest)).toEqual(pmBefore.map(({ lastSeenAt: _l, ...rest }) => rest));
    for (const m of after.filter((r) => r.venue === "kalshi")) expect(m.volume24h).toBe(99999);

    const failedRun = (await db.select().from(ingestRuns).where(eq(ingestRuns.venue, "polymarket"))).find(
      (r) => r.outcome === "failed",
    );
    expect(failedRun?.error).toBeTruthy();
  });

  it("a Kalshi failure does not slow Polymarket: it finishes before the hanging venue gives up", async () => {
    fake.fail("api.elections.kalshi.com", { kind: "hang" });
    const done: Record<string, number> = {};
    const started = Date.now();
    const progress: IngestProgress[] = [];
    await ingestVenues(
      await getDb(),
      options({
        venues: ["polymarket", "kalshi"],
        onProgress: (p) => {
          progress.push(p);
          if (p.phase === "done" || p.phase === "failed") done[p.venue] = Date.now() - started;
        },
      }),
    );
    expect(done.polymarket).toBeLessThan(1500);
    expect(done.kalshi).toBeGreaterThanOrEqual(3000);
    expect(progress.some((p) => p.venue === "polymarket" && p.phase === "upserting" && p.total === 5)).toBe(true);
  });

  it("marks a market closed only when the venue says so, never because it vanished", async () => {
    const db = await getDb();
    await ingestVenues(db, options({ venues: ["polymarket"] }));
    // Lakers (60117) leaves the listing but a direct lookup still says open: it stays open.
    const lakers = fake.data.gammaEvents.find((e) => e.id === "60117");
    fake.data.gammaEvents = fake.data.gammaEvents.filter((e) => e.id !== "60117");
    const vanishedMarketId = String(((lakers?.markets ?? []) as JsonObject[])[0]?.id);
    await ingestVenues(db, options({ venues: ["polymarket"] }));
    expect((await marketRow("polymarket", vanishedMarketId))?.closed).toBe(false);
    expect(fake.requestsTo(`${GAMMA_HOST}/markets`).some((r) => r.query.id === vanishedMarketId)).toBe(true);

    // The venue now reports it closed (direct lookup): positive evidence closes it and its event.
    fake.data.gammaEvents.push({
      ...(lakers as JsonObject),
      active: false,
      closed: true,
      markets: ((lakers?.markets ?? []) as JsonObject[]).map((m) => ({ ...m, active: false, closed: true })),
    });
    fake.data.gammaEvents = fake.data.gammaEvents.filter((e) => e.id !== "60117" || e.closed === true);
    await ingestVenues(db, options({ venues: ["polymarket"] }));
    expect((await marketRow("polymarket", vanishedMarketId))?.closed).toBe(true);
    const [event] = await db.select().from(events).where(eq(events.id, eventUuid("polymarket", "60117")));
    expect(event?.closed).toBe(true);
    expect(await countMarkets("polymarket")).toBe(5);
  });

  it("never runs two ingestions of one venue at once", async () => {
    const db = await getDb();
    fake.fail(`${GAMMA_HOST}/events`, { kind: "hang" });
    const first = ingestVenues(db, options({ venues: ["polymarket"], attempts: 1 }));
    await new Promise((r) => setTimeout(r, 300));
    const [second] = await ingestVenues(db, options({ venues: ["polymarket"] }));
    expect(second).toMatchObject({ outcome: "skipped", runId: null });
    const [firstSummary] = await first;
    expect(firstSummary?.outcome).toBe("failed");
    fake.heal();
    const [third] = await ingestVenues(db, options({ venues: ["polymarket"] }));
    expect(third?.outcome).toBe("succeeded");
  });

  it("closes a run left `running` by a dead process as abandoned", async () => {
    const db = await getDb();
    const [stale] = await db
      .insert(ingestRuns)
      .values({ venue: "polymarket", trigger: "schedule", outcome: "running", startedAt: new Date(Date.now() - 3_600_000) })
      .returning();
    const [summary] = await ingestVenues(db, options({ venues: ["polymarket"] }));
    expect(summary?.outcome).toBe("succeeded");
    const [row] = await db.select().from(ingestRuns).where(eq(ingestRuns.id, stale?.id ?? ""));
    expect(row?.outcome).toBe("abandoned");
    expect(row?.finishedAt).toBeInstanceOf(Date);
  });
});
