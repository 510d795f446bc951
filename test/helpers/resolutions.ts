import type { ResolutionRecord } from "@/lib/outcomes/types";

/**
 * A venue's statement of a market's outcome as a reader hands it to the sink (lib/outcomes/sink.ts),
 * for tests that need changes on the live bus: Kalshi-shaped by default (the ticker is the books key
 * and the venue-native id, outcomes `TICKER` and `TICKER-NO`).
 */
export function resolutionRecord(partial: Partial<ResolutionRecord> & Pick<ResolutionRecord, "venueMarketId" | "state">): ResolutionRecord {
  const at = partial.venueTime ?? new Date();
  return {
    venue: "kalshi",
    market: partial.venueMarketId,
    outcomeIds: [partial.venueMarketId, `${partial.venueMarketId}-NO`],
    venueState: null,
    winningOutcomeId: null,
    settlementValue: null,
    closedAt: null,
    venueTime: at,
    receivedAt: at,
    source: "push",
    resolutionSource: null,
    raw: JSON.stringify({ state: partial.state }),
    ...partial,
  };
}
