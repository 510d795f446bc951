import { tickTable } from "./0001_polymarket_orderbook";
import { kalshiTable } from "./0004_kalshi_orderbook";

/**
 * The fields a book replay reads, computed once when a row is written instead of at every read
 * (docs/spreads.md, "Typed replay columns"): MATERIALIZED columns of both book tables, derived
 * from `data` by the engine at insert (and from the expression at read for parts written before
 * this migration), so the stored frame is untouched and `SELECT *` still answers the five
 * published columns.
 *
 * - `replay_asset`: the row's `asset_id` (every replay filters on it).
 * - `replay_hash`: cityHash64(data), the sorting key's last part (the replay's tie order).
 * - `replay_side`: 1 (BUY) or 2 (SELL) for a `price_change` whose price and size are decimal texts
 *   the engine's Float64 reads exactly as JavaScript's `Number` does, and whose stated best prices
 *   are each such a text or not a text at all; 0 for every other row.
 * - `replay_price`, `replay_size`, `replay_best_bid`, `replay_best_ask`: those numbers (nan where
 *   the field is not such a text: a stated best that is not a text states nothing).
 * - `replay_text`: for a `book` and for a change with `replay_side` 0, the fields a replay reads
 *   as raw JSON, comma-separated, the way the document holds them (`null` for one it lacks):
 *   `bids,asks` or `side,price,size,best_bid,best_ask`; empty otherwise.
 *
 * "Exactly": the text is `-?digits[.digits]` and the engine's own shortest text of the Float64 it
 * read equals the text without its trailing fractional zeros. The shortest text of a double reads
 * back as that double under correct rounding, so `Number(text)` is that double whatever the
 * engine's parser does; anything else (exponents, signs, spaces, long digit strings, escapes)
 * stays a text and is parsed in Node as before.
 */
export const version = "0007_replay_columns";

const map = "CAST(JSONExtractKeysAndValuesRaw(data), 'Map(String, String)')";
const raw = (name: string) => `${map}['${name}']`;
const field = (name: string) => `if(mapContains(${map}, '${name}'), ${raw(name)}, 'null')`;
const inner = (name: string) => `substring(${raw(name)}, 2, length(${raw(name)}) - 2)`;
/** The field is a decimal text that the engine's Float64 reads exactly (above). */
const exact = (name: string) =>
  `(match(${raw(name)}, '^"-?[0-9]+(\\\\.[0-9]+)?"$') AND isFinite(toFloat64OrZero(${inner(name)}))
    AND toString(toFloat64OrZero(${inner(name)})) = if(position(${inner(name)}, '.') > 0, replaceRegexpOne(${inner(name)}, '\\\\.?0+$', ''), ${inner(name)}))`;
const number = (name: string) => `if(${exact(name)}, toFloat64OrZero(${inner(name)}), nan)`;
/** A stated best that is such a text, or not a text at all (it states nothing). */
const statedOk = (name: string) => `(${exact(name)} OR NOT startsWith(${raw(name)}, '"'))`;
const replayable = `(event_type = 'price_change' AND ${exact("price")} AND ${exact("size")} AND ${statedOk("best_bid")} AND ${statedOk("best_ask")})`;
const side = `multiIf(NOT ${replayable}, 0, ${raw("side")} = '"BUY"', 1, ${raw("side")} = '"SELL"', 2, 0)`;
const text = `multiIf(event_type = 'book', concat(${field("bids")}, ',', ${field("asks")}),
    event_type = 'price_change' AND ${side} = 0, concat(${field("side")}, ',', ${field("price")}, ',', ${field("size")}, ',', ${field("best_bid")}, ',', ${field("best_ask")}),
    '')`;

const columns: readonly [string, string][] = [
  ["replay_asset String", `JSONExtractString(data, 'asset_id') CODEC(ZSTD(1))`],
  ["replay_hash UInt64", "cityHash64(data)"],
  ["replay_side UInt8", side],
  ["replay_price Float64", `${number("price")} CODEC(ZSTD(1))`],
  ["replay_size Float64", `${number("size")} CODEC(ZSTD(1))`],
  ["replay_best_bid Float64", `${number("best_bid")} CODEC(ZSTD(1))`],
  ["replay_best_ask Float64", `${number("best_ask")} CODEC(ZSTD(1))`],
  ["replay_text String", `${text} CODEC(ZSTD(3))`],
];

export const replayColumns = columns.map(([definition]) => definition.split(" ")[0] ?? "");

/** The books tables that carry the replay columns. */
export const replayTables: readonly string[] = [tickTable, kalshiTable];

/** The clause adding the replay columns, after `ALTER TABLE <table> [ON CLUSTER …]` (also a cluster's: lib/ticks/cluster.ts). */
export const addReplayColumns = columns.map(([definition, expression]) => `ADD COLUMN IF NOT EXISTS ${definition} MATERIALIZED ${expression}`).join(", ");

/**
 * Only the columns are added: a part written before them has them computed from the expression at
 * read, until a merge writes them (no `MATERIALIZE COLUMN` mutation: a cluster's `Distributed`
 * table takes none, and on a large table it would rewrite every part at start).
 */
export const statements = replayTables.map((table) => `ALTER TABLE ${table} ${addReplayColumns}`);
