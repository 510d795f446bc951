import { describe, expect, it } from "vitest";
import type { BookMessage } from "@/lib/live/bus";
import type { CurrentOutcome } from "@/lib/outcomes/types";
import { LiveSpread } from "./live";
import type { PairSide, ResolvedPair } from "./pairs";

/** The live spread prices nothing from a market's recorded close on, as the recorded series does (docs/spreads.md, "Outcomes"). */

const CLOSED_AT = Date.UTC(2026, 10, 26, 18, 0, 0);

function side(venue: "polymarket" | "kalshi", outcomeId: string, outcome?: CurrentOutcome): PairSide {
  return {
    marketId: `${venue}-market`,
    exchange: venue,
    venue,
    venueMarketId: outcomeId,
    title: "Live close test",
    category: "Economics",
    outcomeId,
    outcomeLabel: "Yes",
    source: { table: `${venue}_table`, conditionId: outcomeId },
    recorder: venue,
    contractAddress: null,
    synthetic: false,
    ...(outcome === undefined ? {} : { outcome }),
  };
}

const closed: CurrentOutcome = {
  venue: "kalshi",
  venueMarketId: "KXLIVECLOSE-26DEC31",
  market: "KXLIVECLOSE-26DEC31",
  outcomeIds: ["KXLIVECLOSE-26DEC31", "KXLIVECLOSE-26DEC31-NO"],
  state: "closed",
  venueState: "closed",
  winningOutcomeId: null,
  settlementValue: null,
  closedAt: new Date(CLOSED_AT),
  determinedAt: null,
  settledAt: null,
  venueTime: new Date(CLOSED_AT),
  receivedAt: new Date(CLOSED_AT + 1000),
  source: "rest",
  resolutionSource: null,
  changes: 1,
};

const message = (venue: string, assetId: string, timestamp: number, bid: number, ask: number): BookMessage => ({
  venue,
  assetId,
  market: assetId,
  epoch: "run",
  seq: timestamp,
  timestamp,
  bids: [[bid, 500]],
  asks: [[ask, 500]],
  inSync: true,
});

describe("the live spread and a market's close", () => {
  it("prices both live books before the close, and from the close on says the closed side's market stopped trading", () => {
    const pair: ResolvedPair = { a: side("polymarket", "live-close-yes"), b: side("kalshi", "KXLIVECLOSE-26DEC31", closed), relation: "identity", confidence: 1, pricing: "identity" };
    const spread = new LiveSpread(pair, 10);
    spread.update(message("polymarket", "live-close-yes", CLOSED_AT - 5000, 0.4, 0.42));
    const before = spread.update(message("kalshi", "KXLIVECLOSE-26DEC31", CLOSED_AT - 1000, 0.45, 0.47));
    expect(before).toMatchObject({ known: true, unknown: null });
    expect(before?.net).not.toBeNull();
    const after = spread.update(message("kalshi", "KXLIVECLOSE-26DEC31", CLOSED_AT, 0.46, 0.48));
    expect(after).toMatchObject({ t: CLOSED_AT, known: false, unknown: { a: null, b: "market_closed" }, net: null, best: null });
  });
});
