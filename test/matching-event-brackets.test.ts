import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { marketMatches as matchesTable, matchFeatures } from "@/lib/db/schema";
import { runMatching } from "@/lib/matching/engine";
import type { Features } from "@/lib/matching/extract";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";

/**
 * The event's other brackets read by the engine (lib/matching/engine.ts, `eventRanges`): a full pass
 * reads every market's range, an incremental pass re-reading one market reads the other markets of
 * its event from the store. Invented markets: a vote share whose brackets leave a gap between them.
 */
const share = (b: string) => `If the Blue Party receives ${b} share of the vote in the 2031 Zorbian election, then the market resolves to Yes.`;

function bracketEvent(third = share("25% to 30%")) {
  const brackets: Array<[string, string]> = [
    ["ZSHARE-31-22.45", share("20% to 24.9%")],
    ["ZSHARE-31-27.5", third],
    ["ZSHARE-31-30", share("30.1% or above")],
  ];
  return makeEvent(
    { venue: "kalshi", venueEventId: "ZSHARE-31", title: "What share of the vote will the Blue Party get in the Zorbian election?" },
    brackets.map(([ticker, description]) => ({ venueMarketId: ticker, title: "What share of the vote will the Blue Party get in the Zorbian election?", description, resolutionDate: new Date("2031-06-01T12:00:00Z") })),
  );
}

async function storedBound(venueMarketId: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ features: matchFeatures.features }).from(matchFeatures).where(eq(matchFeatures.marketId, idOf.get(venueMarketId) ?? ""));
  return (row?.features as Features | undefined)?.rules?.bound?.value;
}

const idOf = new Map<string, string>();

describe("the event's other brackets, read by the engine", () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.delete(matchesTable);
    await db.delete(matchFeatures);
    await clearCatalog();
    const event = bracketEvent();
    for (const m of event.markets) idOf.set(m.venueMarketId, m.id);
    await seedCatalog([event]);
  });

  it("a full pass opens an unsaid bracket's edges beside a gap, and an incremental pass re-reading it reads its event's other markets", async () => {
    const db = await getDb();
    await runMatching(db, { full: true });
    expect(await storedBound("ZSHARE-31-27.5")).toBe("25..30 edges open");
    expect(await storedBound("ZSHARE-31-22.45")).toBe("20..24.9 edges open");
    // The middle bracket's rules reworded: only it is re-read, and its event's other markets are read from the store.
    await seedCatalog([bracketEvent(share("25% to 30%").replace("the 2031", "the next, 2031,"))]);
    const run = await runMatching(db);
    expect(run).toMatchObject({ mode: "incremental", marketsRead: 1 });
    expect(await storedBound("ZSHARE-31-27.5")).toBe("25..30 edges open");
    const [row] = await db.select({ features: matchFeatures.features }).from(matchFeatures).where(eq(matchFeatures.marketId, idOf.get("ZSHARE-31-27.5") ?? ""));
    expect((row?.features as Features | undefined)?.rules?.bound?.wording).toMatch(/the event's other brackets: .*24\.9/);
  });
});
