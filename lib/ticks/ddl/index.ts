/**
 * Versioned ClickHouse DDL, applied in order at start by applyTickDdl. Add a new file per change
 * (`NNNN_what.ts` exporting `statements`) and list it here; never edit one that has shipped.
 */
import * as polymarketOrderbook from "./0001_polymarket_orderbook";

export interface TickDdlMigration {
  version: string;
  statements: string[];
}

export const tickDdl: TickDdlMigration[] = [polymarketOrderbook];
