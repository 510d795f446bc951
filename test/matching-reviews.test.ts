import { beforeEach, describe, expect, it } from "vitest";
import { GET as marketMatches } from "@/app/v0/markets/[id]/matches/route";
import { getDb } from "@/lib/db";
import { markets, matchReviews } from "@/lib/db/schema";
import { runMatching } from "@/lib/matching/engine";
import { exportReviews, importReviews, proposeRejections, queueProvenNegatives, reviewPair, reviewQueue, verifiedPairs } from "@/lib/matching/reviews";
import { clearCatalogAndMatches, makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

// Invented markets (no fixture text): one question listed on both venues, and a second, unrelated pair.
const outcomes = (id: string, label: string, price: number) => [
  { outcomeId: `${id}-yes`, label, price, priceChange24h: 0 },
  { outcomeId: `${id}-no`, label: `Not ${label}`, price: 1 - price, priceChange24h: 0 },
];

const pmTruce = () =>
  makeEvent({ venue: "polymarket", venueEventId: "pm-truce", title: "Zorbia x Xandoria truce in 2026?", category: "World" }, [
    {
      venueMarketId: "pm-truce-sep",
      title: "Zorbia x Xandoria truce in 2026? - Zorbia x Xandoria truce by September 30, 2026?",
      outcomes: outcomes("pm-truce-sep", "September 30, 2026", 0.2),
      contractAddress: `0x${"cd".repeat(32)}`,
      resolutionDate: new Date("2026-09-30T12:00:00Z"),
    },
  ]);

const kxTruce = () =>
  makeEvent({ venue: "kalshi", venueEventId: "KXZORB-26OCT01", title: "Zorbia-Xandoria truce before Oct 1, 2026?", category: "World" }, [
    {
      venueMarketId: "KXZORB-26OCT01",
      title: "Zorbia-Xandoria truce before Oct 1, 2026?",
      description: "If Zorbia and Xandoria both publicly agree to a general truce before Oct 1, 2026, then the market resolves to Yes.",
      outcomes: outcomes("KXZORB-26OCT01", "Before Oct 1, 2026", 0.25),
      contractAddress: null,
      resolutionDate: new Date("2026-09-30T23:59:00Z"),
    },
  ]);

async function ids() {
  const db = await getDb();
  const rows = await db.select({ id: markets.id, venue: markets.venue }).from(markets);
  const pm = rows.find((r) => r.venue === "polymarket")?.id ?? "";
  const kx = rows.find((r) => r.venue === "kalshi")?.id ?? "";
  return { pm, kx };
}

describe("the review queue (verified tier)", () => {
  beforeEach(async () => {
    const db = await getDb();
    await db.delete(matchReviews);
    await clearCatalogAndMatches();
    await seedCatalog([pmTruce(), kxTruce()]);
    await runMatching(db, { full: true });
    // The first pass of a process loads the engine's gazetteers and WordNet.
  }, 180_000);

  it("lists an unreviewed identity with both rules, and a review takes it out of the queue", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    const queue = await reviewQueue(db);
    const item = queue.find((q) => q.pair === [pm, kx].sort().join("|"));
    expect(item).toMatchObject({ relation: "identity", why: expect.stringMatching(/identity|uncertain/) });
    expect([item?.a.rules, item?.b.rules]).toContain("If Zorbia and Xandoria both publicly agree to a general truce before Oct 1, 2026, then the market resolves to Yes.");
    expect(await verifiedPairs(db, [{ a: pm, b: kx, relation: "identity" }])).toEqual(new Set());

    await reviewPair(db, { marketA: kx, marketB: pm, verdict: "confirmed", reason: "same contract", reviewer: "ops@example.test" });
    expect((await reviewQueue(db)).map((q) => q.pair)).not.toContain(item?.pair);
    expect(await verifiedPairs(db, [{ a: pm, b: kx, relation: "identity" }])).toEqual(new Set([[pm, kx].sort().join("|")]));
    // Only the relation confirmed is verified.
    expect(await verifiedPairs(db, [{ a: pm, b: kx, relation: "subset" }])).toEqual(new Set());
    const [stored] = await db.select().from(matchReviews);
    expect(stored).toMatchObject({ verdict: "confirmed", reason: "same contract", reviewer: "ops@example.test", source: "operator" });
    expect(stored?.reviewedAt).toBeInstanceOf(Date);

    // A rejection replaces the confirmation (the latest review wins): no longer verified.
    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "rejected", reason: "rules differ", reviewer: "ops@example.test" });
    expect(await verifiedPairs(db, [{ a: pm, b: kx, relation: "identity" }])).toEqual(new Set());
  });

  it("exports reviews as JSON Lines by the venues' ids and imports them back", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "confirmed", reason: "same contract", reviewer: "ops@example.test", at: new Date("2026-11-27T08:00:00Z") });
    const jsonl = await exportReviews(db);
    const lines = jsonl.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ verdict: "confirmed", relation: "identity", reason: "same contract", reviewer: "ops@example.test", reviewedAt: "2026-11-27T08:00:00.000Z" });
    expect([lines[0]?.a, lines[0]?.b]).toEqual(expect.arrayContaining([{ venue: "kalshi", venueMarketId: "KXZORB-26OCT01" }, { venue: "polymarket", venueMarketId: "pm-truce-sep" }]));

    await db.delete(matchReviews);
    const summary = await importReviews(db, `${jsonl}${JSON.stringify({ ...lines[0], a: { venue: "kalshi", venueMarketId: "KXNOPE" } })}\n`, "admin@example.test");
    expect(summary).toEqual({ imported: 1, unknownMarkets: 1 });
    expect(await verifiedPairs(db, [{ a: kx, b: pm, relation: "identity" }])).toEqual(new Set([[pm, kx].sort().join("|")]));
    const [row] = await db.select().from(matchReviews);
    expect(row).toMatchObject({ source: "import", reviewer: "ops@example.test (imported by admin@example.test)" });
    expect(row?.reviewedAt?.toISOString()).toBe("2026-11-27T08:00:00.000Z");
  });

  it("rejects a malformed import line before writing anything, naming the line", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "confirmed", reason: "", reviewer: "ops@example.test" });
    const good = await exportReviews(db);
    await db.delete(matchReviews);
    await expect(importReviews(db, `${good}{"a":1}\n`, "admin@example.test")).rejects.toThrow(/Line 2/);
    await expect(importReviews(db, `${good}not json\n`, "admin@example.test")).rejects.toThrow(/Line 2 is not JSON/);
    expect(await db.select().from(matchReviews)).toHaveLength(0);
  });

  it("takes proven negatives (pairs that resolved differently) into the queue first, once", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    expect(await proposeRejections(db, [{ marketA: pm, marketB: kx, reason: "resolved differently: Yes on polymarket, No on kalshi" }])).toBe(1);
    expect(await proposeRejections(db, [{ marketA: kx, marketB: pm, reason: "again" }])).toBe(0);
    const [first] = await reviewQueue(db);
    expect(first).toMatchObject({ why: "proposed", proposed: { verdict: "rejected", source: "outcomes", reason: "resolved differently: Yes on polymarket, No on kalshi" }, relation: "identity" });
    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "rejected", reason: "resolved differently", reviewer: "ops@example.test" });
    expect((await reviewQueue(db)).some((q) => q.why === "proposed")).toBe(false);
  });

  it("queues the outcomes audit's proven false identities with the proof as the reason", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    expect(await queueProvenNegatives(db, [{ marketA: kx, marketB: pm, settlements: [1, 0], provenAt: "2026-10-02T00:00:00.000Z" }])).toBe(1);
    const [first] = await reviewQueue(db);
    expect(first?.proposed).toEqual({ verdict: "rejected", source: "outcomes", reason: "resolved differently: Yes settled at 1 on one market and 0 on the other (known 2026-10-02)" });
  });

  it("exports the outcomes audit's waiting proposals as proven negatives, and an import keeps them proposals", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    await queueProvenNegatives(db, [{ marketA: pm, marketB: kx, settlements: [1, 0], provenAt: "2026-10-02T00:00:00.000Z" }]);
    const jsonl = await exportReviews(db);
    const lines = jsonl.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ verdict: "rejected", proposed: true, reviewer: "outcomes", relation: "identity", reason: expect.stringMatching(/^resolved differently/) });
    await db.delete(matchReviews);
    expect(await importReviews(db, jsonl, "admin@example.test")).toEqual({ imported: 1, unknownMarkets: 0 });
    const [row] = await db.select().from(matchReviews);
    expect(row).toMatchObject({ verdict: null, proposed: "rejected", source: "outcomes" });
    expect((await reviewQueue(db))[0]?.why).toBe("proposed");
    // A pair a person already reviewed keeps the review when a proposal for it is imported.
    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "confirmed", reason: "same contract", reviewer: "ops@example.test" });
    await importReviews(db, jsonl, "admin@example.test");
    expect((await db.select().from(matchReviews))[0]).toMatchObject({ verdict: "confirmed" });
  });

  it("confirm, reject, export and import are what the matches route serves as verified, and its verified filter keeps", async () => {
    const db = await getDb();
    const { pm, kx } = await ids();
    const { key } = await makeKey("enterprise");
    const served = async (query: string) => {
      const res = await callRoute(marketMatches, { path: `/v0/markets/${pm}/matches?relation=identity${query}`, params: { id: pm }, key });
      expect(res.status).toBe(200);
      return (res.body as { data: { matches: Array<{ market: { marketId: string }; verified: boolean }> } }).data.matches.filter((m) => m.market.marketId === kx);
    };
    expect(await served("")).toEqual([expect.objectContaining({ verified: false })]);
    expect(await served("&verified=true")).toEqual([]);

    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "confirmed", reason: "same contract", reviewer: "ops@example.test" });
    expect(await served("&verified=true")).toEqual([expect.objectContaining({ verified: true })]);
    expect(await served("&verified=false")).toEqual([]);

    await reviewPair(db, { marketA: kx, marketB: pm, verdict: "rejected", reason: "rules differ", reviewer: "ops@example.test" });
    expect(await served("&verified=true")).toEqual([]);
    expect(await served("&verified=false")).toEqual([expect.objectContaining({ verified: false })]);

    await reviewPair(db, { marketA: pm, marketB: kx, verdict: "confirmed", reason: "read both rules again", reviewer: "ops@example.test" });
    const jsonl = await exportReviews(db);
    await db.delete(matchReviews);
    expect(await served("&verified=true")).toEqual([]);
    expect(await importReviews(db, jsonl, "admin@example.test")).toEqual({ imported: 1, unknownMarkets: 0 });
    expect(await served("&verified=true")).toEqual([expect.objectContaining({ verified: true })]);

    const bad = await callRoute(marketMatches, { path: `/v0/markets/${pm}/matches?verified=maybe`, params: { id: pm }, key });
    expect(bad.status).toBe(400);
  });
});
