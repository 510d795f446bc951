import { tickTable } from "./ddl/0001_polymarket_orderbook";
import { kalshiTable } from "./ddl/0004_kalshi_orderbook";

/**
 * Tables published to user SQL (POST /v0/sql), in the reader's database: the SQL guard resolves
 * every query against exactly these, and the ClickHouse reader user is granted SELECT on these
 * only (lib/ticks/reader-user.ts). Brier's own bookkeeping lives in another database.
 */
export const publishedTables: readonly string[] = [tickTable, kalshiTable];

/** The venues whose order books Brier records, each with its published table. */
export const recordedVenueTables = { polymarket: tickTable, kalshi: kalshiTable } as const;

export type RecordedVenue = keyof typeof recordedVenueTables;

export function isRecordedVenue(venue: string): venue is RecordedVenue {
  return Object.hasOwn(recordedVenueTables, venue);
}

/** The published table holding a venue's recorded books; undefined for a venue not recorded. */
export function recordedTableOf(venue: string): string | undefined {
  return isRecordedVenue(venue) ? recordedVenueTables[venue] : undefined;
}
