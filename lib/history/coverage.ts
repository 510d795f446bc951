import "server-only";
import type { Db } from "@/lib/db";
import { InvalidParameterError, NotFoundError } from "@/lib/errors";
import { unlistedVenue, venueOfTable } from "@/lib/recorder/registry";
import { coverageGaps, hourlyCoverage, intersect } from "./coverage-model";
import { assetIncidents, journalWindow, runSpans, subscribedSpans, syntheticSpans } from "./journal";
import { outcomesOfCondition, recordedOutcomeOrThrow } from "./outcomes";
import { timeRange } from "./params";
import { coverageResponse, type AssetCoverage, type CoverageQuery } from "./shapes";
import { bind, tickRows, type TickReader } from "@/lib/ticks";
import { venueJournal } from "./condition";

const DAY = 86_400_000;

/**
 * GET /v0/coverage: per asset, what the archive holds and, per UTC hour, whether the recorder was
 * listening (available), partly or with incidents (degraded), not at all (missing), or not at all
 * but a synthetic demo history was written (synthetic).
 */
export async function coverage(db: Db, ticks: TickReader, query: CoverageQuery, now = Date.now()) {
  if ((query.market === undefined) === (query.outcomeId === undefined)) throw new InvalidParameterError("market", "give exactly one of market or outcomeId");
  const range = timeRange(query.since, query.until, DAY, now);
  if (range.until - range.since > 31 * DAY) throw new InvalidParameterError("since", "since and until may be at most 31 days apart");

  let market: string;
  // The market's table: the catalog's market's venue's, else the venue recording bare contract addresses (Polymarket's).
  let table = unlistedVenue()?.table ?? "";
  const labels = new Map<string, string>();
  if (query.outcomeId !== undefined) {
    const outcome = await recordedOutcomeOrThrow(db, query.outcomeId);
    market = outcome.conditionId;
    ({ table } = outcome);
    labels.set(outcome.outcomeId, outcome.label);
  } else {
    market = query.market ?? "";
    for (const outcome of await outcomesOfCondition(db, market)) {
      labels.set(outcome.outcomeId, outcome.label);
      ({ table } = outcome);
    }
  }

  const totals = await tickRows<[string, string, number | string, number | string, number | string]>(
    ticks,
    `SELECT JSONExtractString(data, 'asset_id') AS asset, event_type, count() AS rows,
        toUnixTimestamp64Milli(min(timestamp)) AS first, toUnixTimestamp64Milli(max(timestamp)) AS last
      FROM ${table} WHERE market = {market:String} GROUP BY asset, event_type`,
    { market: bind.string(market) },
  );
  const hourly = await tickRows<[string, number | string, number | string]>(
    ticks,
    `SELECT JSONExtractString(data, 'asset_id') AS asset, toUnixTimestamp(toStartOfHour(timestamp, 'UTC')) * 1000 AS hour, count() AS rows
      FROM ${table} WHERE market = {market:String} AND timestamp >= {since:DateTime64(3)} AND timestamp < {until:DateTime64(3)}
      GROUP BY asset, hour`,
    { market: bind.string(market), since: bind.time(Math.floor(range.since / 3_600_000) * 3_600_000), until: bind.time(range.until) },
  );

  const assets = query.outcomeId !== undefined ? [query.outcomeId] : [...new Set([...labels.keys(), ...totals.map((row) => row[0])])].filter((a) => a !== "");
  if (assets.length === 0) throw new NotFoundError("market", market);
  const journal = await journalWindow(db, range.since, range.until, assets);
  const window = venueJournal(journal, venueOfTable(table)?.id ?? "");
  const runs = runSpans(window, now);
  const demo = syntheticSpans(window, now);

  const data: AssetCoverage[] = assets.map((asset) => {
    const mine = totals.filter((row) => row[0] === asset);
    const rowsByType = { book: 0, price_change: 0, last_trade_price: 0 };
    for (const [, type, rows] of mine) if (type in rowsByType) rowsByType[type as keyof typeof rowsByType] = Number(rows);
    const firsts = mine.map((row) => Number(row[3]));
    const lasts = mine.map((row) => Number(row[4]));
    const rowsByHour = new Map(hourly.filter((row) => row[0] === asset).map((row) => [Number(row[1]), Number(row[2])]));
    const { lost, incidents } = assetIncidents(window, asset, now);
    const subscribed = subscribedSpans(window, asset, now);
    const input = { since: range.since, until: range.until, now, runs, subscribed, synthetic: intersect(demo, subscribed), lost, incidents, rowsByHour };
    return {
      outcomeId: asset,
      label: labels.get(asset) ?? null,
      firstEvent: firsts.length === 0 ? null : Math.min(...firsts),
      lastEvent: lasts.length === 0 ? null : Math.max(...lasts),
      rowsByType,
      hours: hourlyCoverage(input),
      gaps: coverageGaps(input),
    };
  });
  return coverageResponse.parse({ data: { market, since: range.since, until: range.until, assets: data } });
}
