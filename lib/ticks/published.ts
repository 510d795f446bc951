import { statements as polymarketStatements, tickTable } from "./ddl/0001_polymarket_orderbook";
import { kalshiTable, statements as kalshiStatements } from "./ddl/0004_kalshi_orderbook";
import { outcomesTable, statements as outcomesStatements } from "./ddl/0006_market_outcomes";

/**
 * Tables published to user SQL (POST /v0/sql), in the reader's database, each with the versioned
 * single-node DDL that made it: the one list that the SQL guard resolves every query against
 * (lib/sql/guard.ts), the ClickHouse reader user is granted SELECT on (./reader-user.ts) and a
 * cluster's DDL is derived from (./cluster.ts). Brier's own bookkeeping lives in another database.
 * The books of each recorded venue, and every market outcome change (`market_outcomes`,
 * lib/outcomes). The recorder registry (lib/recorder/registry.ts, a domain: this infrastructure
 * cannot read it) names each venue's table by these same DDL constants, and
 * lib/recorder/locate.test.ts holds every registered venue's table published.
 */
export const publishedTableDdl: ReadonlyArray<{ table: string; statements: readonly string[] }> = [
  { table: tickTable, statements: polymarketStatements },
  { table: kalshiTable, statements: kalshiStatements },
  { table: outcomesTable, statements: outcomesStatements },
];

export const publishedTables: readonly string[] = publishedTableDdl.map((published) => published.table);

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
