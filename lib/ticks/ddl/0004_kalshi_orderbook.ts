import { statements as polymarketStatements, tickTable } from "./0001_polymarket_orderbook";

/**
 * Kalshi's recorded order books (docs/ticks.md, "Kalshi"): the same columns, engine, keys,
 * codecs, skip index and projection as `polymarket_orderbook_rust`, so every published pattern,
 * history query and archive file reads it unchanged. Derived from that table's DDL text so the
 * two never drift. `market` is the Kalshi market ticker; the recorder writes the same
 * `event_type` vocabulary (`book`, `price_change`, `last_trade_price`), mapped from Kalshi's
 * `orderbook_snapshot`, `orderbook_delta` and `trade` messages (lib/recorder/kalshi/normalize.ts).
 */
export const version = "0004_kalshi_orderbook";

export const kalshiTable = "kalshi_orderbook";

function kalshiDdl(): string {
  const [single] = polymarketStatements;
  if (single === undefined) throw new Error("tick table DDL missing");
  return single
    .replace(`CREATE TABLE IF NOT EXISTS ${tickTable}`, `CREATE TABLE IF NOT EXISTS ${kalshiTable}`)
    .replace("COMMENT 'venue event time (msg.timestamp, epoch ms)'", "COMMENT 'venue event time (epoch ms; see docs/ticks.md, Kalshi)'")
    .replace("COMMENT 'Polymarket condition id (0x + 64 hex)'", "COMMENT 'Kalshi market ticker'");
}

export const statements = [kalshiDdl()];
