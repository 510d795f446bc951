import { beforeAll, describe, expect, it } from "vitest";
import { topOutcomeTokens } from "@/lib/catalog/assets";
import { getDb } from "@/lib/db";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";

describe("topOutcomeTokens", () => {
  beforeAll(async () => {
    await clearCatalog();
    await seedCatalog([
      makeEvent({ venue: "polymarket" }, [
        { venueMarketId: "big", volume24h: 900, contractAddress: "0xbig" },
        { venueMarketId: "mid", volume24h: 500, contractAddress: "0xmid" },
        { venueMarketId: "closed", volume24h: 5000, contractAddress: "0xclosed", closed: true },
        { venueMarketId: "nocontract", volume24h: 4000, contractAddress: null },
        { venueMarketId: "small", volume24h: 10, contractAddress: "0xsmall" },
      ]),
      makeEvent({ venue: "kalshi" }, [{ venueMarketId: "other-venue", volume24h: 99999, contractAddress: "0xk" }]),
    ]);
  });

  it("lists open markets of the venue with a contract address, by volume, one entry per token", async () => {
    const tokens = await topOutcomeTokens(await getDb(), { exchange: "polymarket", limit: 100 });
    expect(tokens.map((t) => t.outcomeId)).toEqual(["big-yes", "big-no", "mid-yes", "mid-no", "small-yes", "small-no"]);
    expect(tokens[0]).toMatchObject({ conditionId: "0xbig", volume24h: 900 });
    expect(tokens[0]?.marketId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("honours the limit without splitting a market's tokens", async () => {
    const tokens = await topOutcomeTokens(await getDb(), { exchange: "polymarket", limit: 3 });
    expect(tokens.map((t) => t.outcomeId)).toEqual(["big-yes", "big-no"]);
    expect(await topOutcomeTokens(await getDb(), { exchange: "polymarket", limit: 0 })).toEqual([]);
  });
});
