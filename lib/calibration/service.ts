import "server-only";
import { marketUuid } from "@/lib/catalog/ids";
import type { Db } from "@/lib/db";
import { InvalidParameterError } from "@/lib/errors";
import { encodeCursor } from "@/lib/input";
import { bind, tickRows, type Bind, type TickReader } from "@/lib/ticks";
import { priceSnapshotsTable } from "@/lib/ticks/ddl/0002_catalog_price_snapshots";
import { internalDatabase } from "@/lib/ticks/migrate";
import { recordedVenue, unlistedVenue } from "@/lib/recorder/registry";
import { categoryMarketKeys, identityPairsForCalibration, outcomesTable, titlesOf, venuesWithOutcomes, type PairForCalibration } from "./sources";
import { aggregateSql, horizonName, rowsSql, type PlanTables } from "./plan";
import { addForecast, emptySums, LOG_LOSS_EPSILON, mergeSums, reliabilityBins, scoresOf, type ScoreSums } from "./score";
import {
  calibrationMarketsResponse,
  calibrationResponse,
  DEFAULT_WINDOW_MS,
  type CalibrationFigure,
  type CalibrationMarketsQuery,
  type CalibrationMarketsResponse,
  type CalibrationQuery,
  type CalibrationResponse,
  type ForecastSource,
  type HeadToHeadPublic,
  type Horizon,
} from "./shapes";

/**
 * GET /v0/calibration and /v0/calibration/markets (docs/calibration.md): how well each venue's
 * prices foretold the outcomes of its markets that resolved in a window. The figures are summed
 * in ClickHouse, one query per venue for every horizon (./plan.ts), and finished by ./score.ts.
 */

/** The venue's recorded books table (lib/recorder/registry.ts): a recorded venue's own, every other venue's books (the demo's) in the table of the venue recording contract addresses (Polymarket's). */
function booksTableOf(venue: string): string {
  const table = (recordedVenue(venue) ?? unlistedVenue())?.table;
  if (table === undefined) throw new Error(`no recorded table for ${venue}`);
  return table;
}

function tablesOf(database: string, venue: string): PlanTables {
  return { outcomes: outcomesTable, books: booksTableOf(venue), snapshots: `${internalDatabase(database)}.${priceSnapshotsTable}` };
}

interface Window {
  since: number;
  until: number;
}

function windowOf(query: { since?: number; until?: number }, now: number): Window {
  const until = query.until ?? now;
  const since = query.since ?? until - DEFAULT_WINDOW_MS;
  if (since >= until) throw new InvalidParameterError("since", "since must be before until");
  return { since, until };
}

/** The forecast of one market at one horizon, as the rows query returns it. */
export interface ForecastRow {
  market: string;
  venueMarketId: string;
  horizonMs: number;
  closedMs: number;
  atMs: number;
  pricedMs: number;
  source: ForecastSource;
  forecast: number;
  takerPrice: number | null;
  outcome: number;
  bin: number;
}

type RawRow = [string, string, string | number, string | number, string | number, string | number, string, number, number, number, number];

function forecastRowOf(raw: RawRow): ForecastRow {
  const [market, venueMarketId, h, closed, at, priced, source, f, taker, y, bin] = raw;
  return {
    market,
    venueMarketId,
    horizonMs: Number(h),
    closedMs: Number(closed),
    atMs: Number(at),
    pricedMs: Number(priced),
    source: source as ForecastSource,
    forecast: f,
    takerPrice: taker < 0 ? null : taker,
    outcome: y,
    bin: Number(bin),
  };
}

interface Params {
  venue: string;
  since: number;
  until: number;
  horizons: Horizon[];
  bins: number;
  markets: string[] | undefined;
}

function bindings(p: Params): Record<string, Bind> {
  const out: Record<string, Bind> = { venue: bind.string(p.venue), since: bind.time(p.since), until: bind.time(p.until), bins: bind.uint32(p.bins) };
  p.horizons.forEach((h, i) => (out[horizonName(i)] = bind.uint64(h.ms)));
  if (p.markets !== undefined) out.markets = bind.strings(p.markets);
  return out;
}

/** h, source, bin, n, Σf, Σy, Σ(f − y)², Σ log loss, taker n, taker Σ(f − y)², taker Σ log loss. */
type AggregateRow = [string | number, string, string | number, string | number, number, number, number, number, string | number, number, number];

/** One venue's figures for every horizon: one ClickHouse query. */
export async function venueFigures(ticks: TickReader, tables: PlanTables, p: Params): Promise<CalibrationFigure[]> {
  const rows = (await tickRows<AggregateRow>(ticks, aggregateSql(tables, { markets: p.markets !== undefined, horizons: p.horizons.length }), bindings(p))).map(
    ([h, source, bin, n, sum_f, sum_y, sum_se, sum_ll, taker_n, taker_se, taker_ll]) => ({ h, source, bin, n, sum_f, sum_y, sum_se, sum_ll, taker_n, taker_se, taker_ll }),
  );
  return p.horizons.map((horizon) => {
    const total = emptySums();
    const taker = emptySums();
    const perBin = new Map<number, ScoreSums>();
    const sources = { book: 0, catalog: 0 };
    let unscored = 0;
    for (const row of rows) {
      if (Number(row.h) !== horizon.ms) continue;
      const n = Number(row.n);
      if (row.source === "") {
        unscored += n;
        continue;
      }
      const sums: ScoreSums = { count: n, sumForecast: row.sum_f, sumOutcome: row.sum_y, sumSquaredError: row.sum_se, sumLogLoss: row.sum_ll };
      mergeSums(total, sums);
      const bin = Number(row.bin);
      const binSums = perBin.get(bin) ?? emptySums();
      mergeSums(binSums, sums);
      perBin.set(bin, binSums);
      if (row.source === "book" || row.source === "catalog") sources[row.source] += n;
      mergeSums(taker, { count: Number(row.taker_n), sumForecast: 0, sumOutcome: 0, sumSquaredError: row.taker_se, sumLogLoss: row.taker_ll });
    }
    const takerScores = scoresOf(taker);
    return {
      venue: p.venue,
      horizon: horizon.label,
      horizonMs: horizon.ms,
      ...scoresOf(total),
      sources,
      taker: { count: takerScores.count, brier: takerScores.brier, logLoss: takerScores.logLoss },
      unscored,
      bins: reliabilityBins(perBin, p.bins),
    };
  });
}

/** Every forecast of the given markets (or of the window), oldest close first. */
export async function forecastRows(
  ticks: TickReader,
  tables: PlanTables,
  p: Params,
  page?: { horizon?: number; bin?: number; source?: ForecastSource; after?: [number, string]; limit?: number },
): Promise<ForecastRow[]> {
  const query = rowsSql(tables, {
    markets: p.markets !== undefined,
    horizons: p.horizons.length,
    horizon: page?.horizon !== undefined,
    bin: page?.bin !== undefined,
    source: page?.source !== undefined,
    cursor: page?.after !== undefined,
    limit: page?.limit !== undefined,
  });
  const binds: Record<string, Bind> = bindings(p);
  if (page?.horizon !== undefined) binds.horizon = bind.uint64(page.horizon);
  if (page?.bin !== undefined) binds.bin = bind.uint32(page.bin);
  if (page?.source !== undefined) binds.source = bind.string(page.source);
  if (page?.after !== undefined) {
    binds.afterClosed = bind.int64(page.after[0]);
    binds.afterMarket = bind.string(page.after[1]);
  }
  if (page?.limit !== undefined) binds.limit = bind.uint32(page.limit);
  return (await tickRows<RawRow>(ticks, query, binds)).map(forecastRowOf);
}

/** Per venue, the books keys a category restricts to (undefined: no restriction). */
async function marketsFilter(db: Db, category: string | undefined, venues: string[], w: Window): Promise<Map<string, string[]> | undefined> {
  if (category === undefined) return undefined;
  return categoryMarketKeys(db, category, venues, new Date(w.since), new Date(w.until));
}

/**
 * Head to head: the identity pairs both of whose markets resolved the same way, each venue's
 * Brier score on those same questions at each horizon (pairs where both had a forecast).
 */
async function headToHead(
  ticks: TickReader,
  database: string,
  pairs: PairForCalibration[],
  base: Omit<Params, "venue" | "markets">,
  allowed: Map<string, string[]> | undefined,
): Promise<HeadToHeadPublic[]> {
  const keysByVenue = new Map<string, Set<string>>();
  for (const pair of pairs) {
    for (const side of [pair.a, pair.b]) {
      if (allowed !== undefined && !(allowed.get(side.venue) ?? []).includes(side.market)) continue;
      let set = keysByVenue.get(side.venue);
      if (set === undefined) keysByVenue.set(side.venue, (set = new Set()));
      set.add(side.market);
    }
  }
  const forecasts = new Map<string, ForecastRow>();
  const key = (venue: string, market: string, h: number) => `${venue}\u0000${market}\u0000${h}`;
  await Promise.all(
    [...keysByVenue].map(async ([venue, markets]) => {
      const rows = await forecastRows(ticks, tablesOf(database, venue), { ...base, venue, markets: [...markets] });
      for (const row of rows) forecasts.set(key(venue, row.market, row.horizonMs), row);
    }),
  );
  const out: HeadToHeadPublic[] = [];
  for (const horizon of base.horizons) {
    const groups = new Map<string, { venueA: string; venueB: string; a: ScoreSums; b: ScoreSums; ids: Array<[string, string]> }>();
    for (const pair of pairs) {
      // Oriented by venue name so each venue pair is one row.
      const [a, b] = pair.a.venue <= pair.b.venue ? [pair.a, pair.b] : [pair.b, pair.a];
      const fa = forecasts.get(key(a.venue, a.market, horizon.ms));
      const fb = forecasts.get(key(b.venue, b.market, horizon.ms));
      if (fa === undefined || fb === undefined) continue;
      const groupKey = `${a.venue}\u0000${b.venue}`;
      let group = groups.get(groupKey);
      if (group === undefined) groups.set(groupKey, (group = { venueA: a.venue, venueB: b.venue, a: emptySums(), b: emptySums(), ids: [] }));
      addForecast(group.a, fa);
      addForecast(group.b, fb);
      group.ids.push([a.marketId, b.marketId]);
    }
    for (const group of groups.values()) {
      out.push({
        venueA: group.venueA,
        venueB: group.venueB,
        horizon: horizon.label,
        horizonMs: horizon.ms,
        pairs: group.a.count,
        brierA: scoresOf(group.a).brier,
        brierB: scoresOf(group.b).brier,
        marketIds: group.ids,
      });
    }
  }
  return out;
}

// GET /v0/calibration
export async function getCalibration(db: Db, ticks: TickReader, query: CalibrationQuery, now = Date.now()): Promise<CalibrationResponse> {
  const w = windowOf(query, now);
  const database = await ticks.database();
  const venues = query.venue ?? (await venuesWithOutcomes(ticks));
  const filter = await marketsFilter(db, query.category, venues, w);
  const base = { since: w.since, until: w.until, horizons: query.horizon, bins: query.bins };
  const perVenue = await Promise.all(
    venues.map((venue) => {
      const markets = filter?.get(venue);
      if (filter !== undefined && (markets === undefined || markets.length === 0)) return [] as CalibrationFigure[];
      return venueFigures(ticks, tablesOf(database, venue), { ...base, venue, markets });
    }),
  );
  const audit = await identityPairsForCalibration(db, venues, w.since, w.until);
  return calibrationResponse.parse({
    data: perVenue.flat().filter((figure) => figure.count > 0 || figure.unscored > 0),
    headToHead: await headToHead(ticks, database, audit.agreeing, base, filter),
    meta: {
      since: new Date(w.since).toISOString(),
      until: new Date(w.until).toISOString(),
      bins: query.bins,
      horizons: query.horizon.map((h) => h.label),
      category: query.category ?? null,
      venues,
      logLossEpsilon: LOG_LOSS_EPSILON,
      disagreedPairs: audit.disagreed,
    },
  });
}

// GET /v0/calibration/markets
export async function getCalibrationMarkets(db: Db, ticks: TickReader, query: CalibrationMarketsQuery, now = Date.now()): Promise<CalibrationMarketsResponse> {
  const w = windowOf(query, now);
  const filter = await marketsFilter(db, query.category, [query.venue], w);
  const markets = filter?.get(query.venue);
  const empty = { data: [], meta: { count: 0, limit: query.limit, nextCursor: null } };
  if (filter !== undefined && (markets === undefined || markets.length === 0)) return calibrationMarketsResponse.parse(empty);
  const rows = await forecastRows(
    ticks,
    tablesOf(await ticks.database(), query.venue),
    { venue: query.venue, since: w.since, until: w.until, horizons: [query.horizon], bins: query.bins, markets },
    { horizon: query.horizon.ms, bin: query.bin, source: query.source, after: query.cursor === undefined ? undefined : [query.cursor[1], query.cursor[2]], limit: query.limit + 1 },
  );
  const page = rows.slice(0, query.limit);
  const ids = page.map((row) => marketUuid(query.venue, row.venueMarketId));
  const titles = await titlesOf(db, ids);
  const last = page[page.length - 1];
  return calibrationMarketsResponse.parse({
    data: page.map((row, i) => ({
      marketId: ids[i],
      venue: query.venue,
      venueMarketId: row.venueMarketId,
      title: titles.get(ids[i] ?? "") ?? null,
      closedAt: new Date(row.closedMs).toISOString(),
      forecastAt: new Date(row.atMs).toISOString(),
      pricedAt: new Date(row.pricedMs).toISOString(),
      source: row.source,
      forecast: row.forecast,
      takerPrice: row.takerPrice,
      outcome: row.outcome,
      bin: row.bin,
    })),
    meta: { count: page.length, limit: query.limit, nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(["c", last.closedMs, last.market]) : null },
  });
}
