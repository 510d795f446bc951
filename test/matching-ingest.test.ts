import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { GET as marketMatches } from "@/app/v0/markets/[id]/matches/route";
import { ingestCatalog } from "@/lib/jobs/catalog";
import { getDb } from "@/lib/db";
import { events, ingestLeases, ingestRuns, marketMatches as matchesTable, markets, matchFeatures } from "@/lib/db/schema";
import { createExchange } from "@/lib/venues/factory";
import { createFakeVenues } from "./fakes/venue-server";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

// The labelled development sets, served in the venues' wire formats, through the real ingestion:
// the incremental matching pass runs after it without being asked.
type FakeVenues = ReturnType<typeof createFakeVenues>;
type FakeData = FakeVenues["data"];
const reader = (set: string) => (name: string) => JSON.parse(readFileSync(path.join(path.resolve(__dirname, "fixtures", set), name), "utf8"));
const read = reader("matching");
const fake = createFakeVenues();

async function serve(fake: FakeVenues, readSet: (name: string) => unknown) {
  fake.data.gammaEvents = readSet("polymarket_gamma_events.json") as FakeData["gammaEvents"];
  fake.data.kalshiEvents = (readSet("kalshi_events.json") as { events: FakeData["kalshiEvents"] }).events;
  fake.data.kalshiSeries = (readSet("kalshi_series.json") as { series: FakeData["kalshiSeries"] }).series;
  const db = await getDb();
  await db.delete(matchesTable);
  await db.delete(matchFeatures);
  await db.delete(markets);
  await db.delete(events);
  await db.delete(ingestRuns);
  await db.delete(ingestLeases);
}

beforeAll(async () => {
  await fake.listen();
  await serve(fake, read);
});

afterAll(async () => {
  await fake.close();
});

describe("matching after catalog ingestion", () => {
  it("matches the ingested venues and serves the labelled identities by condition id", async () => {
    const db = await getDb();
    const runs = await ingestCatalog(db, {
      venues: ["polymarket", "kalshi"],
      trigger: "test",
      attempts: 1,
      exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
    });
    expect(runs.map((r) => r.outcome)).toEqual(["succeeded", "succeeded"]);
    expect((await db.select().from(matchFeatures)).length).toBe(173);

    const { key } = await makeKey("enterprise");
    const labels = read("LABELS.json") as { pairs: Array<{ polymarket: { conditionId: string }; kalshi: { ticker: string }; relation: string }> };
    const identities = labels.pairs.filter((p) => p.relation === "identity");
    let found = 0;
    let wrong = 0;
    for (const cid of new Set(labels.pairs.map((p) => p.polymarket.conditionId))) {
      const res = await callRoute(marketMatches, { path: `/v0/markets/${cid}/matches?relation=identity`, params: { id: cid }, key });
      expect(res.status).toBe(200);
      const body = res.body as { data: { matches: Array<{ market: { venueMarketId: string } }> } };
      for (const m of body.data.matches) {
        if (identities.some((p) => p.polymarket.conditionId === cid && p.kalshi.ticker === m.market.venueMarketId)) found += 1;
        else wrong += 1;
      }
    }
    // Regression guard on the development set (the targets: precision >= 0.95, recall >= 0.85).
    expect(found / identities.length).toBeGreaterThanOrEqual(0.85);
    expect(found / (found + wrong)).toBeGreaterThanOrEqual(0.95);
  });
});

describe("matching real listings after catalog ingestion", () => {
  it("claims an identity only where the labels hold one (real Polymarket and Kalshi listings)", async () => {
    const readReal = reader("matching-real");
    // A fake of its own: the first one's clients keep connections to it.
    const realFake = createFakeVenues();
    await serve(realFake, readReal);
    await realFake.listen();
    onTestFinished(() => realFake.close());
    const db = await getDb();
    const runs = await ingestCatalog(db, {
      venues: ["polymarket", "kalshi"],
      trigger: "test",
      attempts: 1,
      exchangeFor: (venue) => createExchange(venue, { redirectUrl: realFake.url }),
    });
    expect(runs.map((r) => `${r.outcome} ${r.error ?? ""}`)).toEqual(["succeeded ", "succeeded "]);
    const { key } = await makeKey("enterprise");
    const labels = readReal("LABELS.json") as { pairs: Array<{ polymarket: { conditionId: string }; kalshi: { ticker: string }; relation: string }> };
    const relationOf = new Map(labels.pairs.map((p) => [`${p.polymarket.conditionId}|${p.kalshi.ticker}`, p.relation]));
    let right = 0;
    let wrong = 0;
    for (const cid of new Set(labels.pairs.map((p) => p.polymarket.conditionId))) {
      const res = await callRoute(marketMatches, { path: `/v0/markets/${cid}/matches?relation=identity`, params: { id: cid }, key });
      expect(res.status).toBe(200);
      const body = res.body as { data: { matches: Array<{ market: { venueMarketId: string }; reasoning: string }> } };
      for (const m of body.data.matches) {
        if (relationOf.get(`${cid}|${m.market.venueMarketId}`) === "identity") right += 1;
        else wrong += 1;
      }
    }
    // Landed before this engine: 32 right of 180 claimed (precision 0.178). Identity fails closed now.
    expect(right).toBeGreaterThanOrEqual(10);
    expect(right / (right + wrong)).toBeGreaterThanOrEqual(0.9);
  });
});
