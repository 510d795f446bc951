import { LOG_LOSS_EPSILON } from "./score";

/**
 * The ClickHouse query plan of calibration (docs/calibration.md, "One query per venue"): one query
 * per venue answers every horizon at once, from the recorded tables alone.
 *
 * 1. `resolved`: the venue's markets' current outcome, folded from the append-only outcome rows
 *    (the last change by venue time, then received time, read as one tuple so a later row with no
 *    winner never borrows an earlier row's winner), and the last close time the venue stated.
 * 2. `scored`: those determined or settled (never voided) with a close in [since, until) and an
 *    outcome for Yes (the first outcome): the settlement value when stated, else 1 or 0 by the winner.
 * 3. `targets`: one row per market and horizon, the forecast instant = close − horizon.
 *    The books and the price history are first narrowed to `candidates` (the markets, and their Yes
 *    outcome, with any determined or settled row: a superset of `scored` read without a GROUP BY).
 *    A CTE is inlined at each use, so filtering them with `scored` itself ran its aggregation of
 *    every outcome row once per use (docs/calibration.md, "Measured").
 * 4. Two ASOF joins, each taking the last observation at or before the forecast instant (so never
 *    a price from after the close): the Yes outcome's recorded book (best bid and ask, from a `book`
 *    snapshot's levels or a `price_change`'s stated best levels), and the catalog's price history.
 * 5. `forecasts`: the book's mid where the book had both sides, else the catalog price; the source
 *    named; the best ask kept as the price a taker buying Yes would pay.
 * The aggregate query sums per (horizon, source, bin); score.ts finishes the figures.
 */

export interface PlanTables {
  /** `market_outcomes` (the published database). */
  outcomes: string;
  /** The venue's recorded books (`polymarket_orderbook_rust`, `kalshi_orderbook`), or undefined when it has none. */
  books: string | undefined;
  /** The catalog's price snapshots, fully qualified (internal database). */
  snapshots: string;
}

export interface PlanFilter {
  /** Restrict to these books keys (a category's markets, a set of pairs). */
  markets: boolean;
  /** How many horizons: each is its own placeholder `{h0:UInt64}`, `{h1:UInt64}`, ... */
  horizons: number;
}

/** The horizons' placeholders, one per horizon (the typed binds have no array of integers). */
export const horizonName = (i: number) => `h${i}`;
const horizonList = (n: number) => Array.from({ length: n }, (_, i) => `{${horizonName(i)}:UInt64}`).join(", ");

const clip = (x: string) => `greatest(${LOG_LOSS_EPSILON}, least(${1 - LOG_LOSS_EPSILON}, ${x}))`;
const logLoss = (f: string) => `-(y * ln(${clip(f)}) + (1 - y) * ln(1 - ${clip(f)}))`;
const bestOf = (side: "bids" | "asks", pick: "arrayMax" | "arrayMin") =>
  `${pick}(arrayMap(l -> toFloat64OrZero(l.1), JSONExtract(data, '${side}', 'Array(Tuple(String, String))')))`;

/** The common part: every scored market's forecast at every horizon, with its source. */
export function forecastsCte(tables: PlanTables, filter: PlanFilter): string {
  const marketFilter = filter.markets ? "AND market IN {markets:Array(String)}" : "";
  const bookSide =
    tables.books === undefined
      ? `priced AS (
    SELECT t.*, toDateTime64(0, 3) AS book_ts, 0. AS bid, 0. AS ask FROM targets AS t
  ),`
      : `books AS (
    SELECT market, JSONExtractString(data, 'asset_id') AS asset, timestamp AS ts,
      if(event_type = 'book', ${bestOf("bids", "arrayMax")}, toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS bid,
      if(event_type = 'book', ${bestOf("asks", "arrayMin")}, toFloat64OrZero(JSONExtractString(data, 'best_ask'))) AS ask
    FROM ${tables.books}
    WHERE market IN (SELECT market FROM candidates) AND event_type IN ('book', 'price_change')
      AND (event_type = 'book' OR JSONHas(data, 'best_bid'))
      AND JSONExtractString(data, 'asset_id') IN (SELECT yes FROM candidates)
  ),
  priced AS (
    SELECT t.*, b.ts AS book_ts, b.bid AS bid, b.ask AS ask
    FROM targets AS t ASOF LEFT JOIN books AS b ON b.market = t.market AND b.asset = t.yes AND b.ts <= t.at
  ),`;
  return `WITH
  candidates AS (
    SELECT market, outcome_ids[1] AS yes FROM ${tables.outcomes}
    WHERE venue = {venue:String} AND state IN ('determined', 'settled') ${marketFilter}
  ),
  resolved AS (
    SELECT market, any(venue_market_id) AS venue_market_id,
      argMax(tuple(state, winning_outcome_id, settlement_value, outcome_ids), (venue_time, received_time)) AS last,
      argMaxIf(closed_time, (venue_time, received_time), closed_time IS NOT NULL) AS closed
    FROM ${tables.outcomes}
    WHERE venue = {venue:String} ${marketFilter}
    GROUP BY market
  ),
  scored AS (
    SELECT market, venue_market_id, assumeNotNull(closed) AS closed, last.4[1] AS yes,
      if(last.3 IS NOT NULL, toFloat64(assumeNotNull(last.3)), if(assumeNotNull(last.2) = yes, 1., 0.)) AS y
    FROM resolved
    WHERE last.1 IN ('determined', 'settled') AND closed IS NOT NULL
      AND closed >= {since:DateTime64(3)} AND closed < {until:DateTime64(3)}
      AND (last.3 IS NOT NULL OR last.2 IS NOT NULL) AND length(last.4) >= 1
  ),
  targets AS (
    SELECT market, venue_market_id, closed, yes, y, h, subtractMilliseconds(closed, h) AS at
    FROM scored ARRAY JOIN [${horizonList(filter.horizons)}] AS h
  ),
  ${bookSide}
  snaps AS (
    SELECT outcome_id, snapshot_at, price FROM ${tables.snapshots}
    WHERE venue = {venue:String} AND outcome_id IN (SELECT yes FROM candidates)
  ),
  joined AS (
    SELECT p.*, s.snapshot_at AS snap_ts, s.price AS snap_price
    FROM priced AS p ASOF LEFT JOIN snaps AS s ON s.outcome_id = p.yes AND s.snapshot_at <= p.at
  ),
  forecasts AS (
    SELECT market, venue_market_id, closed, at, h, y,
      toUnixTimestamp64Milli(book_ts) > 0 AND bid > 0 AND ask > 0 AND ask <= 1 AND bid <= ask AS from_book,
      toUnixTimestamp64Milli(snap_ts) > 0 AS from_catalog,
      multiIf(from_book, 'book', from_catalog, 'catalog', '') AS source,
      if(from_book, (bid + ask) / 2, snap_price) AS f,
      if(from_book, ask, -1.) AS taker,
      if(from_book, book_ts, snap_ts) AS priced_at,
      least({bins:UInt32} - 1, toUInt32(floor(greatest(0., f) * {bins:UInt32}))) AS bin
    FROM joined
  )`;
}

/** Sums per (horizon, source, bin): what score.ts turns into the answer's figures. */
export function aggregateSql(tables: PlanTables, filter: PlanFilter): string {
  return `${forecastsCte(tables, filter)}
SELECT h, source, bin, count() AS n,
  sum(f) AS sum_f, sum(y) AS sum_y, sum(pow(f - y, 2)) AS sum_se, sum(${logLoss("f")}) AS sum_ll,
  countIf(taker >= 0) AS taker_n, sumIf(pow(taker - y, 2), taker >= 0) AS taker_se, sumIf(${logLoss("taker")}, taker >= 0) AS taker_ll
FROM forecasts
GROUP BY h, source, bin
ORDER BY h, source, bin`;
}

/**
 * One row per forecast (the markets behind a figure, and the head to head's pairs), oldest close
 * first, keyset-paged on (close, market).
 */
export function rowsSql(tables: PlanTables, filter: PlanFilter & { horizon: boolean; bin: boolean; source: boolean; cursor: boolean; limit: boolean }): string {
  const where = ["source != ''"];
  if (filter.horizon) where.push("h = {horizon:UInt64}");
  if (filter.bin) where.push("bin = {bin:UInt32}");
  if (filter.source) where.push("source = {source:String}");
  if (filter.cursor) where.push("(toUnixTimestamp64Milli(closed), market) > ({afterClosed:Int64}, {afterMarket:String})");
  return `${forecastsCte(tables, filter)}
SELECT market, venue_market_id, h, toUnixTimestamp64Milli(closed) AS closed_ms, toUnixTimestamp64Milli(at) AS at_ms,
  toUnixTimestamp64Milli(priced_at) AS priced_ms, source, f, taker, y, bin
FROM forecasts
WHERE ${where.join(" AND ")}
ORDER BY closed, market, h
${filter.limit ? "LIMIT {limit:UInt32}" : ""}`;
}
