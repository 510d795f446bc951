import { beforeAll, describe, expect, it } from "vitest";
import { GET as arbitrage } from "@/app/v0/arbitrage/route";
import { GET as eventMatches } from "@/app/v0/events/[id]/matches/route";
import { GET as eventsMatches } from "@/app/v0/events/matches/route";
import { GET as marketMatches } from "@/app/v0/markets/[id]/matches/route";
import { GET as matchedMarkets } from "@/app/v0/matched-markets/route";
import { GET as matchedPrices } from "@/app/v0/matched-prices/route";
import { getDb } from "@/lib/db";
import { marketMatches as matchesTable, matchFeatures } from "@/lib/db/schema";
import { runMatching } from "@/lib/matching/engine";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

const PM_CID = `0x${"ab".repeat(32)}`;

const outcomes = (id: string, label: string, price: number) => [
  { outcomeId: `${id}-yes`, label, price, priceChange24h: 0 },
  { outcomeId: `${id}-no`, label: `Not ${label}`, price: 1 - price, priceChange24h: 0 },
];

function polymarketCeasefire() {
  return makeEvent({ venue: "polymarket", venueEventId: "pm-cease", title: "Russia x Ukraine ceasefire in 2026?", category: "World" }, [
    {
      venueMarketId: "pm-cease-sep",
      title: "Russia x Ukraine ceasefire in 2026? - Russia x Ukraine ceasefire by September 30, 2026?",
      outcomes: outcomes("pm-cease-sep", "September 30, 2026", 0.2),
      contractAddress: PM_CID,
      resolutionDate: new Date("2026-09-30T12:00:00Z"),
    },
  ]);
}

function kalshiCeasefire(date: string, ticker = "KXUKR-26OCT01", price = 0.27) {
  return makeEvent({ venue: "kalshi", venueEventId: ticker, title: `Russia-Ukraine ceasefire before ${date}?`, category: "World" }, [
    {
      venueMarketId: ticker,
      title: `Russia-Ukraine ceasefire before ${date}?`,
      description: `If Russia and Ukraine both publicly agree to a general ceasefire or armistice before ${date}, then the market resolves to Yes.`,
      outcomes: outcomes(ticker, `Before ${date}`, price),
      contractAddress: null,
      resolutionDate: new Date("2026-09-30T23:59:00Z"),
    },
  ]);
}

type MatchBody = { data: { market: { marketId: string }; matches: Array<{ market: { venueMarketId: string; lastPrice?: number | null }; relation: string; confidence: number; reasoning: string; validTo: string | null }> } };

let key = "";

beforeAll(async () => {
  key = (await makeKey("free")).key;
});

describeKeyedRoute({ name: "GET /v0/markets/{id}/matches", handler: marketMatches, request: { path: "/v0/markets/x/matches", params: { id: "x" } }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/events/{id}/matches", handler: eventMatches, request: { path: "/v0/events/x/matches", params: { id: "x" } }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/matched-markets", handler: matchedMarkets, request: { path: "/v0/matched-markets" }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/matched-prices", handler: matchedPrices, request: { path: "/v0/matched-prices" }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/events/matches", handler: eventsMatches, request: { path: "/v0/events/matches" }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/arbitrage", handler: arbitrage, request: { path: "/v0/arbitrage" }, surface: "v0" });

describe("matching engine and endpoints over the catalog", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.delete(matchesTable);
    await db.delete(matchFeatures);
    await clearCatalog();
    await seedCatalog([polymarketCeasefire(), kalshiCeasefire("Oct 1, 2026")]);
  });

  it("finds the identity, serves it by condition id with reasoning, and is idempotent", async () => {
    const db = await getDb();
    const first = await runMatching(db, { full: true });
    expect(first).toMatchObject({ mode: "full", marketsRead: 2, matchesFound: 1, opened: 1, closed: 0 });

    const res = await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches?includePrices=true`, params: { id: PM_CID }, key });
    expect(res.status).toBe(200);
    const body = res.body as MatchBody;
    expect(body.data.matches).toHaveLength(1);
    expect(body.data.matches[0]).toMatchObject({ relation: "identity", market: { venueMarketId: "KXUKR-26OCT01", lastPrice: 0.27 }, validTo: null });
    expect(body.data.matches[0]?.confidence).toBeGreaterThan(0.9);
    expect(body.data.matches[0]?.reasoning).toMatch(/before 2026-10-01/);

    // Nothing changed: an incremental pass reads nothing, a full pass confirms without new rows.
    expect(await runMatching(db)).toMatchObject({ marketsRead: 0, opened: 0, closed: 0 });
    expect(await runMatching(db, { full: true })).toMatchObject({ opened: 0, confirmed: 1, closed: 0 });
    expect(await db.select().from(matchesTable)).toHaveLength(1);
  });

  it("keeps no identity when a market reads the same as two markets of the other venue", async () => {
    const db = await getDb();
    await seedCatalog([kalshiCeasefire("Oct 1, 2026", "KXUKR-26OCT01-B", 0.3)]);
    await runMatching(db, { full: true });
    const res = await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches`, params: { id: PM_CID }, key });
    const body = res.body as MatchBody;
    expect(body.data.matches.map((m) => m.relation)).toEqual(["overlap", "overlap"]);
    expect(body.data.matches[0]?.reasoning).toMatch(/ambiguous/);
    // The answer carries why as data: one of the two reads the same as one other market.
    const differences = (body.data.matches[0] as unknown as { differences: Array<{ attribute: string; a: string[] }> }).differences;
    expect(differences).toContainEqual(expect.objectContaining({ attribute: "ambiguity", state: "conflict", a: ["1"] }));
    // The duplicate delisted: the one left is the identity again.
    await db.delete(matchesTable);
    await db.delete(matchFeatures);
    await clearCatalog();
    await seedCatalog([polymarketCeasefire(), kalshiCeasefire("Oct 1, 2026")]);
    await runMatching(db, { full: true });
    const again = (await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches`, params: { id: PM_CID }, key })).body as MatchBody;
    expect(again.data.matches.map((m) => m.relation)).toEqual(["identity"]);
  });

  it("closes a changed match and keeps the old verdict for asOf", async () => {
    const db = await getDb();
    const before = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The Kalshi deadline moves to Jan 1, 2027: the same ticker now asks a broader question.
    await seedCatalog([kalshiCeasefire("Jan 1, 2027")]);
    const run = await runMatching(db);
    expect(run).toMatchObject({ mode: "incremental", marketsRead: 1, opened: 1, closed: 1 });

    const rows = await db.select().from(matchesTable);
    expect(rows).toHaveLength(2);
    const closed = rows.find((r) => r.validTo !== null);
    const current = rows.find((r) => r.validTo === null);
    expect(closed?.relation).toBe("identity");
    expect(current?.firstSeenAt.getTime()).toBe(closed?.firstSeenAt.getTime());

    const now = (await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches`, params: { id: PM_CID }, key })).body as MatchBody;
    expect(now.data.matches[0]?.relation).toBe("subset");
    const then = await callRoute(marketMatches, { path: `/v0/markets/${PM_CID}/matches?asOf=${before.toISOString()}`, params: { id: PM_CID }, key });
    expect((then.body as MatchBody).data.matches[0]?.relation).toBe("identity");

    // Read from the Kalshi side, the relation is inverted.
    const fromKalshi = (await callRoute(marketMatches, { path: "/v0/markets/KXUKR-26OCT01/matches", params: { id: "KXUKR-26OCT01" }, key })).body as MatchBody;
    expect(fromKalshi.data.matches[0]?.relation).toBe("superset");
  });

  it("browses pairs, events and arbitrage", async () => {
    const pairs = await callRoute(matchedMarkets, { path: "/v0/matched-markets?relations=identity,subset", key });
    expect(pairs.status).toBe(200);
    const data = (pairs.body as { data: Array<{ priceDifference: number; venueA: string; venueB: string; relation: string }> }).data;
    expect(data).toHaveLength(1);
    expect(data[0]?.priceDifference).toBeCloseTo(0.07, 5);
    expect(new Set([data[0]?.venueA, data[0]?.venueB])).toEqual(new Set(["polymarket", "kalshi"]));

    const arb = await callRoute(arbitrage, { path: "/v0/arbitrage?relations=subset,superset", key });
    expect(arb.status).toBe(200);
    // The narrower Polymarket question (20¢) is cheaper than the broader Kalshi one (27¢): consistent, no opportunity.
    expect((arb.body as { data: unknown[] }).data).toHaveLength(0);

    const events = await callRoute(eventsMatches, { path: "/v0/events/matches", key });
    expect((events.body as { data: Array<{ marketMatches: unknown[] }> }).data[0]?.marketMatches).toHaveLength(1);
    const byEvent = await callRoute(eventMatches, { path: "/v0/events/pm-cease/matches", params: { id: "pm-cease" }, key });
    expect(byEvent.status).toBe(200);
    expect((byEvent.body as { data: { matches: Array<{ marketMatches: Array<{ relation: string }> }> } }).data.matches[0]?.marketMatches[0]?.relation).toBe("subset");
  });

  it("answers 404 for an unknown market", async () => {
    const res = await callRoute(marketMatches, { path: "/v0/markets/nope/matches", params: { id: "nope" }, key });
    expect(res.status).toBe(404);
  });
});

describe("rule differences in the answers", () => {
  const PM_OUT = `0x${"cd".repeat(32)}`;
  beforeAll(async () => {
    const db = await getDb();
    await db.delete(matchesTable);
    await db.delete(matchFeatures);
    await clearCatalog();
    const question = "Will Ada Quill leave office before 2031?";
    await seedCatalog([
      makeEvent({ venue: "polymarket", venueEventId: "pm-quill", title: question, category: "Politics" }, [
        {
          venueMarketId: "pm-quill-out",
          title: `${question} - ${question}`,
          description: "This market will resolve to Yes if Ada Quill leaves office by December 31, 2030.\nAn announcement of her resignation will resolve this market to Yes.",
          outcomes: outcomes("pm-quill-out", question, 0.3),
          contractAddress: PM_OUT,
          resolutionDate: new Date("2030-12-31T12:00:00Z"),
        },
      ]),
      makeEvent({ venue: "kalshi", venueEventId: "KXQUILL-31", title: question, category: "Politics" }, [
        {
          venueMarketId: "KXQUILL-31",
          title: question,
          description: "If Ada Quill leaves office before Jan 1, 2031, then the market resolves to Yes.",
          outcomes: outcomes("KXQUILL-31", question, 0.25),
          contractAddress: null,
          resolutionDate: new Date("2030-12-31T23:59:00Z"),
        },
      ]),
    ]);
    await runMatching(db, { full: true });
  });

  type Difference = { term: string; a: string; b: string };

  it("carries each side's wording, read from the requested market's side, and keeps the pair at most overlap", async () => {
    const res = await callRoute(marketMatches, { path: `/v0/markets/${PM_OUT}/matches`, params: { id: PM_OUT }, key });
    expect(res.status).toBe(200);
    const match = (res.body as { data: { matches: Array<{ relation: string; ruleDifferences: Difference[] }> } }).data.matches[0];
    expect(match?.relation).toBe("overlap");
    expect(match?.ruleDifferences).toHaveLength(1);
    expect(match?.ruleDifferences[0]).toMatchObject({ term: "trigger", a: expect.stringMatching(/announcement of her resignation/), b: expect.stringMatching(/If Ada Quill leaves office/) });
    // From the Kalshi side the two wordings swap.
    const fromKalshi = await callRoute(marketMatches, { path: "/v0/markets/KXQUILL-31/matches", params: { id: "KXQUILL-31" }, key });
    const other = (fromKalshi.body as { data: { matches: Array<{ ruleDifferences: Difference[] }> } }).data.matches[0];
    expect(other?.ruleDifferences[0]?.b).toMatch(/announcement of her resignation/);
    // The differences the engine stored swap sides too.
    type Stored = { attribute: string; label?: string; a: string[]; b: string[] };
    const stored = (res.body as { data: { matches: Array<{ differences: Stored[] }> } }).data.matches[0]?.differences.find((d) => d.attribute === "rules");
    expect(stored).toMatchObject({ label: "trigger", a: [expect.stringMatching(/announcement of her resignation/)] });
    const swapped = (fromKalshi.body as { data: { matches: Array<{ differences: Stored[] }> } }).data.matches[0]?.differences.find((d) => d.attribute === "rules");
    expect(swapped?.b).toEqual(stored?.a);
  });

  it("pairs on Compare carry them as marketA's and marketB's", async () => {
    const res = await callRoute(matchedMarkets, { path: "/v0/matched-markets?relations=overlap", key });
    expect(res.status).toBe(200);
    const pair = (res.body as { data: Array<{ venueA: string; ruleDifferences: Difference[] }> }).data[0];
    expect(pair?.ruleDifferences).toHaveLength(1);
    const announcementSide = pair?.venueA === "polymarket" ? pair.ruleDifferences[0]?.a : pair?.ruleDifferences[0]?.b;
    expect(announcementSide).toMatch(/announcement of her resignation/);
  });
});

describe("parameters: 400 naming the parameter", () => {
  const cases: Array<[string, typeof marketMatches | typeof matchedMarkets, string, string]> = [
    ["market matches", marketMatches, "relation=same", "relation"],
    ["market matches", marketMatches, "minConfidence=2", "minConfidence"],
    ["market matches", marketMatches, "minConfidence=abc", "minConfidence"],
    ["market matches", marketMatches, "limit=0", "limit"],
    ["market matches", marketMatches, "limit=ten", "limit"],
    ["market matches", marketMatches, "includePrices=yes", "includePrices"],
    ["market matches", marketMatches, "asOf=yesterday", "asOf"],
    ["market matches", marketMatches, "limit=1&limit=2", "limit"],
    ["matched markets", matchedMarkets, "relations=identity,twin", "relations"],
    ["matched markets", matchedMarkets, "minDifference=-0.1", "minDifference"],
    ["matched markets", matchedMarkets, "maxDifference=1.5", "maxDifference"],
    ["matched markets", matchedMarkets, "category=Nope", "category"],
    ["matched prices", matchedPrices, "limit=-1", "limit"],
    ["events matches", eventsMatches, "relation=twin", "relation"],
    ["arbitrage", arbitrage, "minSpread=5", "minSpread"],
  ];
  it.each(cases)("%s: %s", async (_name, handler, query, parameter) => {
    const res = await callRoute(handler as typeof marketMatches, { path: `/v0/x?${query}`, params: { id: PM_CID }, key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter } });
  });
});
