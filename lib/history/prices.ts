import "server-only";
import { Readable } from "node:stream";
import type { NormalizedEvent } from "@/lib/catalog/normalize";
import { outcomesOfMarkets } from "@/lib/catalog/market-reads";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import type { Db } from "@/lib/db";
import { InvalidParameterError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { bind, tickRows, type TickReader, type TickStores } from "@/lib/ticks";
import { priceSnapshotsTable } from "@/lib/ticks/ddl/0002_catalog_price_snapshots";
import { priceHourlyTable } from "@/lib/ticks/ddl/0003_catalog_price_hourly";
import { internalDatabase } from "@/lib/ticks/migrate";
import { timeRange } from "./params";
import { marketPricesResponse, sparklinesResponse, type MarketPrices, type MarketPricesQuery, type PriceCandle, type Sparkline, type SparklinesQuery } from "./shapes";

/** One outcome's price at one catalog poll. */
export interface PriceSnapshot {
  atMs: number;
  venue: string;
  marketId: string;
  outcomeId: string;
  price: number;
  bestBid: number | null;
  bestAsk: number | null;
  volume24h: number | null;
}

function table(stores: TickStores): string {
  return `${internalDatabase(stores.database)}.${priceSnapshotsTable}`;
}

/** The hourly OHLC states the materialized view keeps (lib/ticks/ddl/0003_catalog_price_hourly.ts). */
function hourlyTable(database: string): string {
  return `${internalDatabase(database)}.${priceHourlyTable}`;
}

/** Every outcome of every market a poll normalized, at the poll's time. */
export function snapshotsOfPoll(events: readonly NormalizedEvent[], atMs: number): PriceSnapshot[] {
  const out: PriceSnapshot[] = [];
  for (const event of events) {
    for (const market of event.markets) {
      for (const outcome of market.outcomes) {
        if (!Number.isFinite(outcome.price)) continue;
        out.push({
          atMs,
          venue: market.venue,
          marketId: market.id,
          outcomeId: outcome.outcomeId,
          price: outcome.price,
          // pmxt-core's unified markets carry no best bid/ask for the catalog venues (docs/history.md).
          bestBid: null,
          bestAsk: null,
          volume24h: market.volume24h ?? null,
        });
      }
    }
  }
  return out;
}

const TSV_SPECIAL = /[\\\t\n\r\0]/g;
const tsv = (value: string) => value.replace(TSV_SPECIAL, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\0": "\\0" })[c] ?? c);
const num = (value: number | null) => (value === null || !Number.isFinite(value) ? "\\N" : String(value));
/** DateTime64(3) as decimal epoch seconds: time-zone free, what the tick writer sends too. */
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Appends snapshots in one insert (TabSeparated). */
export async function insertPriceSnapshots(stores: TickStores, snapshots: readonly PriceSnapshot[]): Promise<void> {
  if (snapshots.length === 0) return;
  let body = "";
  for (const s of snapshots) {
    body += `${seconds(s.atMs)}\t${tsv(s.venue)}\t${s.marketId}\t${tsv(s.outcomeId)}\t${s.price}\t${num(s.bestBid)}\t${num(s.bestAsk)}\t${num(s.volume24h)}\n`;
  }
  await stores.writer.insert({
    table: table(stores),
    columns: ["snapshot_at", "venue", "market_id", "outcome_id", "price", "best_bid", "best_ask", "volume_24h"],
    values: Readable.from([body], { objectMode: false }),
    format: "TabSeparated",
  });
}

/**
 * The catalog poll's hook: appends every outcome's price to the snapshot table. Never fails the
 * poll: the catalog is already stored; a missed snapshot is a gap in price history, logged.
 */
export async function recordPollPrices(stores: TickStores, events: readonly NormalizedEvent[], atMs: number): Promise<number> {
  const snapshots = snapshotsOfPoll(events, atMs);
  try {
    await insertPriceSnapshots(stores, snapshots);
    return snapshots.length;
  } catch (error) {
    log.warn("price snapshots not written", { snapshots: snapshots.length, ...errorFields(error) });
    return 0;
  }
}

const DAY = 86_400_000;
export const priceIntervals = { "1h": { ms: 3_600_000, fn: "toStartOfHour", defaultSpan: 7 * DAY, maxSpan: 31 * DAY }, "1d": { ms: DAY, fn: "toStartOfDay", defaultSpan: 90 * DAY, maxSpan: 366 * DAY } } as const;

/** GET /v0/markets/{id}/prices: per outcome, OHLC of the catalog's price snapshots per bucket. */
export async function marketPrices(db: Db, ticks: TickReader, id: string, query: MarketPricesQuery, now = Date.now()): Promise<MarketPrices> {
  const spec = priceIntervals[query.interval];
  const range = timeRange(query.since, query.until, spec.defaultSpan, now);
  if (range.until - range.since > spec.maxSpan) {
    throw new InvalidParameterError("since", `with interval=${query.interval} since and until may be at most ${spec.maxSpan / DAY} days apart`);
  }
  const market = await getMarketOrThrow(db, id);
  const rows = await tickRows<[string, number | string, number, number, number, number, number | string, number | null]>(
    ticks,
    `SELECT outcome_id, toUnixTimestamp(${spec.fn}(hour, 'UTC')) * 1000 AS time,
        argMinMerge(open) AS open, max(high) AS high, min(low) AS low, argMaxMerge(close) AS close,
        sum(snapshots) AS snapshots, argMaxMerge(volume_24h) AS volume24h
      FROM ${hourlyTable(await ticks.database())}
      WHERE market_id = {market:UUID} AND hour >= {since:DateTime64(3)} AND hour < {until:DateTime64(3)}
      GROUP BY outcome_id, time ORDER BY outcome_id, time`,
    // Buckets are whole: \`since\` selects from the start of its bucket.
    { market: bind.uuid(market.marketId), since: bind.time(Math.floor(range.since / spec.ms) * spec.ms), until: bind.time(range.until) },
  );
  const byOutcome = new Map<string, PriceCandle[]>();
  for (const [outcomeId, time, open, high, low, close, snapshots, volume24h] of rows) {
    const list = byOutcome.get(outcomeId) ?? [];
    list.push({ time: Number(time), open, high, low, close, snapshots: Number(snapshots), volume24h });
    byOutcome.set(outcomeId, list);
  }
  return marketPricesResponse.shape.data.parse({
    marketId: market.marketId,
    venue: market.exchange,
    interval: query.interval,
    since: range.since,
    until: range.until,
    outcomes: market.outcomes.map((outcome) => ({ outcomeId: outcome.outcomeId, label: outcome.label, candles: byOutcome.get(outcome.outcomeId) ?? [] })),
  });
}

/**
 * GET /v0/prices/sparklines: the last 7 days of hourly closes of each market's first outcome
 * (YES on a binary market), for a page of catalog rows in one call.
 */
export async function sparklines(db: Db, ticks: TickReader, { marketIds }: SparklinesQuery, now = Date.now()): Promise<Sparkline[]> {
  const rows = await outcomesOfMarkets(db, marketIds);
  const firstOutcome = new Map(rows.flatMap((row) => (row.outcomes[0] === undefined ? [] : [[row.id, row.outcomes[0].outcomeId] as const])));
  if (firstOutcome.size === 0) return [];
  const found = await tickRows<[string, string, Array<[number | string, number]>]>(
    ticks,
    `SELECT toString(market_id) AS market, outcome_id, groupArray((time, close)) AS points
      FROM (
        SELECT market_id, outcome_id, toUnixTimestamp(hour) * 1000 AS time, argMaxMerge(close) AS close
        FROM ${hourlyTable(await ticks.database())}
        WHERE market_id IN {markets:Array(UUID)} AND outcome_id IN {outcomes:Array(String)} AND hour >= {since:DateTime64(3)}
        GROUP BY market_id, outcome_id, time ORDER BY market_id, outcome_id, time
      )
      GROUP BY market_id, outcome_id`,
    { markets: bind.uuids([...firstOutcome.keys()]), outcomes: bind.strings([...firstOutcome.values()]), since: bind.time(Math.floor((now - 7 * DAY) / 3_600_000) * 3_600_000) },
  );
  return sparklinesResponse.shape.data.parse(
    found
      .filter(([marketId, outcomeId]) => firstOutcome.get(marketId) === outcomeId)
      .map(([marketId, outcomeId, points]) => ({ marketId, outcomeId, points: points.map(([t, p]): [number, number] => [Number(t), p]) })),
  );
}
