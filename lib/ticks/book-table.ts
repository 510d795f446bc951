import { statements as bookTableDdl, tickTable } from "./ddl/0001_polymarket_orderbook";
import { addReplayColumns } from "./ddl/0007_replay_columns";

const TABLE_NAME = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * The DDL of a recorded venue's book table: the columns, engine, keys, codecs, skip index and
 * projection of `polymarket_orderbook_rust` under another name (as 0004 derives Kalshi's), so every
 * history query, spread and archive file reads it unchanged, with the replay columns 0007 adds to
 * both big venues' tables (a spread's replay reads them: lib/history/ticks.ts). `marketComment` says
 * what the venue's `market` column holds. For a venue whose table is not among the versioned DDL
 * files (lib/ticks/ddl).
 */
export function bookTableStatements(table: string, marketComment: string): string[] {
  if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${table}`);
  const [single] = bookTableDdl;
  if (single === undefined) throw new Error("tick table DDL missing");
  const comment = marketComment.replaceAll("\\", "\\\\").replaceAll("'", "\\'");
  return [
    single
      .replace(`CREATE TABLE IF NOT EXISTS ${tickTable}`, `CREATE TABLE IF NOT EXISTS ${table}`)
      .replace("COMMENT 'venue event time (msg.timestamp, epoch ms)'", "COMMENT 'venue event time (epoch ms)'")
      .replace("COMMENT 'Polymarket condition id (0x + 64 hex)'", `COMMENT '${comment}'`),
    `ALTER TABLE ${table} ${addReplayColumns}`,
  ];
}
