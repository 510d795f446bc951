import "server-only";
import { pollVenue, type IngestRunSummary } from "@/lib/catalog/ingest";
import type { Db } from "@/lib/db";
import type { TickStores } from "@/lib/ticks";
import { priceSnapshotsTable } from "@/lib/ticks/ddl/0002_catalog_price_snapshots";
import { internalDatabase } from "@/lib/ticks/migrate";
import { createExchange, type Exchange } from "@/lib/venues/factory";

/**
 * The demo's one source of truth for prices (README, "Quick start"): the catalog's price and
 * 24-hour change of every market with a synthetic history are read off that history's own books,
 * never taken from the mock venue's fixed numbers. So the catalog, its sparklines (the history's
 * price samples), the market page's recorded book and the API's books tell one story.
 */

/** One outcome's quote: the mid of its book now, and that mid minus the mid 24 hours earlier. */
export interface DemoQuote {
  price: number;
  change24h: number;
}

const DAY_MS = 86_400_000;
/** Prices in the catalog carry four decimals at most (a half-cent mid is 0.005). */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Quotes from a history's price samples (`atMs`, `outcomeId`, `price`): the last sample of each
 * outcome, and its change since the last sample at or before 24 hours earlier (the first sample
 * when the history is shorter than a day).
 */
export function quotesFromSamples(samples: ReadonlyArray<{ atMs: number; outcomeId: string; price: number }>): Map<string, DemoQuote> {
  const byOutcome = new Map<string, Array<{ atMs: number; price: number }>>();
  for (const sample of samples) {
    const list = byOutcome.get(sample.outcomeId);
    if (list === undefined) byOutcome.set(sample.outcomeId, [{ atMs: sample.atMs, price: sample.price }]);
    else list.push({ atMs: sample.atMs, price: sample.price });
  }
  const quotes = new Map<string, DemoQuote>();
  for (const [outcomeId, list] of byOutcome) {
    list.sort((a, b) => a.atMs - b.atMs);
    const last = list[list.length - 1];
    if (last === undefined) continue;
    let dayAgo = list[0] ?? last;
    for (const sample of list) {
      if (sample.atMs <= last.atMs - DAY_MS) dayAgo = sample;
      else break;
    }
    quotes.set(outcomeId, { price: round(last.price), change24h: round(last.price - dayAgo.price) });
  }
  return quotes;
}

/** Each outcome's last catalog price at or before 24 hours ago (the price snapshots), for the 24-hour change. */
export async function pricesDayAgo(stores: TickStores, outcomeIds: readonly string[], now: number): Promise<Map<string, number>> {
  if (outcomeIds.length === 0) return new Map();
  const result = await stores.queries.query({
    query: `SELECT outcome_id, argMax(price, snapshot_at) AS price
      FROM ${internalDatabase(stores.database)}.${priceSnapshotsTable}
      WHERE outcome_id IN {outcomes:Array(String)} AND snapshot_at <= fromUnixTimestamp64Milli({at:Int64}) AND snapshot_at > fromUnixTimestamp64Milli({from:Int64})
      GROUP BY outcome_id`,
    query_params: { outcomes: [...outcomeIds], at: now - DAY_MS, from: now - 2 * DAY_MS },
    format: "JSONEachRow",
  });
  return new Map((await result.json<{ outcome_id: string; price: number }>()).map((row) => [row.outcome_id, Number(row.price)]));
}

/**
 * The quotes of demo markets that closed (their books stand as they did at the close): each
 * outcome's price as the catalog has it, and its change since the last price snapshot at or before
 * 24 hours ago (0 when the day before that has none).
 */
export async function closedMarketQuotes(stores: TickStores, closed: ReadonlyArray<{ outcomeIds: readonly string[]; yesPrice?: number }>, now: number): Promise<Map<string, DemoQuote>> {
  const priced = closed.flatMap((market) => {
    const [yes, no] = market.outcomeIds;
    return yes === undefined || no === undefined || market.yesPrice === undefined ? [] : [{ yes, no, price: market.yesPrice }];
  });
  const dayAgo = await pricesDayAgo(stores, priced.flatMap((m) => [m.yes, m.no]), now);
  const quotes = new Map<string, DemoQuote>();
  for (const { yes, no, price } of priced) {
    for (const [outcomeId, value] of [[yes, price], [no, 1 - price]] as const) {
      quotes.set(outcomeId, { price: round(value), change24h: round(value - (dayAgo.get(outcomeId) ?? value)) });
    }
  }
  return quotes;
}

/**
 * The mock venue as pmxt-core lists it (titles, events, ids), with the prices of the outcomes the
 * demo simulates replaced by their simulated quotes: what the demo's catalog poll reads.
 */
export function pricedMockExchange(quotes: ReadonlyMap<string, DemoQuote>): Exchange {
  const exchange = createExchange("mock");
  const fetchEvents = exchange.fetchEvents.bind(exchange);
  exchange.fetchEvents = async (params?: Parameters<Exchange["fetchEvents"]>[0]) => {
    const events = await fetchEvents(params);
    for (const event of events) {
      for (const market of event.markets ?? []) {
        for (const outcome of market.outcomes ?? []) {
          const quote = quotes.get(outcome.outcomeId);
          if (quote === undefined) continue;
          outcome.price = quote.price;
          outcome.priceChange24h = quote.change24h;
        }
      }
    }
    return events;
  };
  return exchange;
}

/** The catalog poll of the mock venue with the demo's quotes: the same path (and run record) as any poll. */
export function pollDemoCatalog(db: Db, quotes: ReadonlyMap<string, DemoQuote>): Promise<IngestRunSummary> {
  return pollVenue(db, "mock", { trigger: "schedule", attempts: 1, closeChecks: 0, exchangeFor: () => pricedMockExchange(quotes) });
}
