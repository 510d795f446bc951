/**
 * Versioned ClickHouse DDL, applied in order at start by applyTickDdl. Add a new file per change
 * (`NNNN_what.ts` exporting `statements`) and list it here; never edit one that has shipped.
 * A file that creates internal tables (never published to user SQL) exports `statements` as a
 * function of the database names, and puts them in `internal`.
 */
import * as polymarketOrderbook from "./0001_polymarket_orderbook";
import * as catalogPriceSnapshots from "./0002_catalog_price_snapshots";
import * as catalogPriceHourly from "./0003_catalog_price_hourly";
import * as kalshiOrderbook from "./0004_kalshi_orderbook";
import * as archiveFiles from "./0005_archive_files";
import * as marketOutcomes from "./0006_market_outcomes";
import * as replayColumns from "./0007_replay_columns";
import type { TickDdlDatabases } from "./databases";

export type { TickDdlDatabases } from "./databases";

export interface TickDdlMigration {
  version: string;
  statements: string[] | ((databases: TickDdlDatabases) => string[]);
}

export const tickDdl: TickDdlMigration[] = [polymarketOrderbook, catalogPriceSnapshots, catalogPriceHourly, kalshiOrderbook, archiveFiles, marketOutcomes, replayColumns];
