import { tickTable } from "./ddl/0001_polymarket_orderbook";
import { kalshiTable } from "./ddl/0004_kalshi_orderbook";
import { outcomesTable } from "./ddl/0006_market_outcomes";

/**
 * Tables published to user SQL (POST /v0/sql), in the reader's database: the SQL guard resolves
 * every query against exactly these, and the ClickHouse reader user is granted SELECT on these
 * only (lib/ticks/reader-user.ts). Brier's own bookkeeping lives in another database. The books of
 * each recorded venue, and every market outcome change (`market_outcomes`, lib/outcomes).
 */
export const publishedTables: readonly string[] = [tickTable, kalshiTable, outcomesTable];

export { outcomesTable };

/**
 * The shipped recorded venues' book tables by venue, for the archive and the offline demo's
 * writers. What a recorded venue is, and the list every other reader reads (the market page's
 * charts included), is lib/recorder/registry.ts.
 */
export const recordedVenueTables = { polymarket: tickTable, kalshi: kalshiTable } as const;

export type RecordedVenue = keyof typeof recordedVenueTables;

/** A shipped recorded venue (the archive's venues; every other reader asks lib/recorder/registry.ts). */
export function isRecordedVenue(venue: string): venue is RecordedVenue {
  return Object.hasOwn(recordedVenueTables, venue);
}
