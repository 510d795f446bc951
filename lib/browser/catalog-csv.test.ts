import { describe, expect, it } from "vitest";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { eventsCsv, marketsCsv } from "./catalog-csv";

const market = (overrides: Partial<MarketPublic>): MarketPublic => ({
  marketId: "00000000-0000-5000-8000-000000000001",
  eventId: "00000000-0000-5000-8000-000000000002",
  exchange: "kalshi",
  venueMarketId: "KX-1",
  title: "Plain title",
  slug: null,
  description: null,
  category: "Economics",
  outcomes: [
    { outcomeId: "KX-1-yes", label: "Yes", price: 0.85, priceChange24h: 0.02 },
    { outcomeId: "KX-1-no", label: "No", price: 0.15, priceChange24h: -0.02 },
  ],
  volume24h: 1200,
  volume: null,
  liquidity: null,
  openInterest: null,
  status: "active",
  closed: false,
  resolutionDate: "2027-01-01T00:00:00.000Z",
  contractAddress: null,
  url: "https://example.test/m",
  image: null,
  firstSeenAt: "2026-11-01T00:00:00.000Z",
  updatedAt: "2026-11-23T00:00:00.000Z",
  resolution: { state: "open", winningOutcomeId: null, settlementValue: null, closedAt: null, determinedAt: null, settledAt: null, venueState: "active", resolutionSource: null, learnedBy: "catalog", synthetic: false, updatedAt: null },
  ...overrides,
});

describe("catalog CSV", () => {
  it("writes a header and one CRLF row per market, prices as served", () => {
    const lines = marketsCsv([market({})]).split("\r\n");
    expect(lines[0]).toBe("marketId,exchange,title,category,yesPrice,yesChange24h,outcomes,volume24h,liquidity,resolutionDate,closed,url");
    expect(lines[1]).toBe(
      "00000000-0000-5000-8000-000000000001,kalshi,Plain title,Economics,0.85,0.02,Yes=0.85; No=0.15,1200,,2027-01-01T00:00:00.000Z,false,https://example.test/m",
    );
    expect(lines[2]).toBe("");
  });

  it.each([
    ['Rate "cut", or hold?', '"Rate ""cut"", or hold?"'],
    ["two\nlines", '"two\nlines"'],
    ["=HYPERLINK(1)", "'=HYPERLINK(1)"],
    ["-1 or +1", "'-1 or +1"],
  ])("escapes the title %j", (title, expected) => {
    expect(marketsCsv([market({ title })]).split("\r\n")[1]).toContain(`,${expected},`);
  });

  it("writes events with their market count", () => {
    const csv = eventsCsv([
      {
        eventId: "e1",
        exchange: "mock",
        venueEventId: "v",
        title: "Event",
        slug: null,
        description: null,
        category: "Crypto",
        tags: [],
        image: null,
        url: null,
        volume24h: 5,
        volume: null,
        closed: false,
        resolutionDate: null,
        firstSeenAt: "2026-11-01T00:00:00.000Z",
        updatedAt: "2026-11-01T00:00:00.000Z",
        markets: [market({}), market({})],
      },
    ]);
    expect(csv.split("\r\n")[1]).toBe("e1,mock,Event,Crypto,2,5,,false,");
  });
});
