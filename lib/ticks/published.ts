import { tickTable } from "./ddl/0001_polymarket_orderbook";

/**
 * Tables published to user SQL (POST /v0/sql), in the reader's database: the SQL guard resolves
 * every query against exactly these, and the ClickHouse reader user is granted SELECT on these
 * only (lib/ticks/reader-user.ts). Brier's own bookkeeping lives in another database.
 */
export const publishedTables: readonly string[] = [tickTable];
