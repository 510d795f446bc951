import type { CatalogMarketRef, RecordedVenue } from "./venue";

/**
 * What finding a catalog market's recorded rows needs of a recorded venue: plain data, so the
 * registry (server-only) can hand it to the market page's charts, a browser component
 * (`recordingRules` in ./registry.ts), and both decide with the one function below.
 */
export type RecordingRule = Pick<RecordedVenue, "id" | "table" | "keyedBy" | "recordsUnlistedVenues">;

/**
 * Where a catalog market's rows are recorded, among `venues`: a recorded venue's market in its
 * table under its venue's key; a market of a venue that records nothing, with a contract address,
 * in the table of the venue that records such markets (Polymarket's: the offline demo's mock
 * venue); undefined when not recorded.
 */
export function recordedMarketIn<V extends RecordingRule>(venues: readonly V[], market: CatalogMarketRef): { venue: V; table: string; market: string } | undefined {
  const venue = venues.find((known) => known.id === market.venue) ?? (market.contractAddress === null ? undefined : venues.find((known) => known.recordsUnlistedVenues === true));
  const key = venue === undefined ? undefined : venue.keyedBy === "venueMarketId" ? market.venueMarketId : (market.contractAddress ?? undefined);
  return venue === undefined || key === undefined ? undefined : { venue, table: venue.table, market: key };
}
