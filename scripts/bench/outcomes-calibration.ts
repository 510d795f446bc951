/**
 * bench:outcomes, calibration section (docs/calibration.md, "Measured"): GET /v0/calibration over
 * `--calibration-markets` (default 1,000,000) resolved markets × 4 horizons (1h, 1d, 7d, 30d) from
 * recorded data, against the same figures from one hand-written ClickHouse query in the same run.
 *
 * Data, generated inside the engine (numbers()): 60 % Polymarket, 40 % Kalshi markets, each one
 * `market_outcomes` row (settled, Yes or No, 1 % 50-50), a tenth with an earlier `closed` row; three
 * catalog price snapshots per market (close − 2 h, − 3 d, − 20 d); a recorded book for one market in
 * five (a `book` 40 days before the close and four `price_change`s), so both forecast sources are
 * exercised. The route is called in-process (key, plan, parsing, one query per venue, scoring); the
 * baseline is one query written apart from lib/calibration's plan (LIMIT 1 BY instead of argMax, one
 * UNION of both books tables), and both must give the same counts and Brier scores.
 *
 * Called by scripts/bench/outcomes.ts with its stores open (embedded, a temp DATA_DIR).
 */
import { parseArgs } from "node:util";
import type { TickReader } from "@/lib/ticks";
import { summarize, timed } from "./lib/harness";
import { loadLine } from "./lib/memory";

const H = 3_600_000;
const D = 24 * H;
const HORIZONS = [H, D, 7 * D, 30 * D];

const median = (xs: number[]) => summarize(xs).p50;

interface Figure {
  venue: string;
  horizonMs: number;
  count: number;
  brier: number | null;
}

/** The hand-written query: every venue and horizon at once, its own formulation. */
function handWritten(internal: string, since: number, until: number): string {
  const t = (ms: number) => `fromUnixTimestamp64Milli(toInt64(${ms}))`;
  const bookSource = (venue: string, table: string) => `SELECT '${venue}' AS venue, market, JSONExtractString(data, 'asset_id') AS asset, timestamp AS ts,
      if(event_type = 'book', arrayMax(arrayMap(l -> toFloat64OrZero(l.1), JSONExtract(data, 'bids', 'Array(Tuple(String, String))'))), toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS bid,
      if(event_type = 'book', arrayMin(arrayMap(l -> toFloat64OrZero(l.1), JSONExtract(data, 'asks', 'Array(Tuple(String, String))'))), toFloat64OrZero(JSONExtractString(data, 'best_ask'))) AS ask
    FROM ${table} WHERE event_type IN ('book', 'price_change') AND (event_type = 'book' OR JSONHas(data, 'best_bid'))`;
  return `WITH
  latest AS (
    SELECT venue, market, outcome_ids, state, winning_outcome_id, settlement_value, closed_time
    FROM market_outcomes ORDER BY venue, market, venue_time DESC, received_time DESC LIMIT 1 BY venue, market
  ),
  res AS (
    SELECT venue, market, outcome_ids[1] AS yes, toFloat64(coalesce(settlement_value, if(winning_outcome_id = outcome_ids[1], 1, 0))) AS y, assumeNotNull(closed_time) AS c
    FROM latest WHERE state IN ('settled', 'determined') AND closed_time >= ${t(since)} AND closed_time < ${t(until)}
  ),
  tgt AS (SELECT venue, market, yes, y, h, c - toIntervalMillisecond(h) AS at FROM res ARRAY JOIN [${HORIZONS.join(", ")}] AS h),
  bk AS (${bookSource("polymarket", "polymarket_orderbook_rust")} UNION ALL ${bookSource("kalshi", "kalshi_orderbook")}),
  sn AS (SELECT venue, outcome_id, snapshot_at, price FROM ${internal}.catalog_price_snapshots),
  j AS (
    SELECT tgt.venue AS venue, tgt.h AS h, tgt.y AS y, bk.ts AS bts, bk.bid AS bid, bk.ask AS ask, tgt.yes AS yes, tgt.at AS at
    FROM tgt ASOF LEFT JOIN bk ON bk.venue = tgt.venue AND bk.market = tgt.market AND bk.asset = tgt.yes AND bk.ts <= tgt.at
  ),
  k AS (
    SELECT j.venue AS venue, h, y, bts, bid, ask, sn.snapshot_at AS sts, sn.price AS sp
    FROM j ASOF LEFT JOIN sn ON sn.venue = j.venue AND sn.outcome_id = j.yes AND sn.snapshot_at <= j.at
  ),
  f AS (
    SELECT venue, h, y,
      toUnixTimestamp64Milli(bts) > 0 AND bid > 0 AND ask > 0 AND ask <= 1 AND bid <= ask AS ok_book,
      if(ok_book, (bid + ask) / 2, if(toUnixTimestamp64Milli(sts) > 0, sp, nan)) AS p
    FROM k
  )
SELECT venue, h, count() AS n, avg(pow(p - y, 2)) AS brier FROM f WHERE NOT isNaN(p) GROUP BY venue, h ORDER BY venue, h`;
}

export async function calibrationSection(report: (line: string) => void = console.log): Promise<void> {
  const { values } = parseArgs({
    options: { "calibration-markets": { type: "string", default: "1000000" }, "calibration-runs": { type: "string", default: "3" }, "calibration-profile": { type: "boolean", default: false } },
    strict: false,
  });
  const total = Number(values["calibration-markets"]);
  const runs = Number(values["calibration-runs"]);
  const { getTickStores, tickRows } = await import("@/lib/ticks");
  const { getDb } = await import("@/lib/db");
  const { internalDatabase } = await import("@/lib/ticks/migrate");
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { GET: calibrationRoute } = await import("@/app/v0/calibration/route");
  const stores = await getTickStores();
  const db = await getDb();
  const internal = internalDatabase(stores.database);
  const close0 = Date.parse("2026-01-01T00:00:00Z");
  const span = 300 * D;
  const since = close0 - D;
  const until = close0 + span + D;

  report(`\n## calibration: ${total.toLocaleString("en-US")} resolved markets × 4 horizons (${loadLine("at start")})`);
  const started = performance.now();
  // Market i: venue by i % 5 (0-2 Polymarket, 3-4 Kalshi), close spread over 300 days, Yes wins when a hash says so.
  const venue = `if(number % 5 < 3, 'polymarket', 'kalshi')`;
  const market = `if(number % 5 < 3, concat('0x', lower(hex(cityHash64(number, 7))), lower(hex(cityHash64(number, 8)))), concat('KXB-', toString(number)))`;
  const yes = `if(number % 5 < 3, toString(cityHash64(number, 1)), concat('KXB-', toString(number)))`;
  const no = `if(number % 5 < 3, toString(cityHash64(number, 2)), concat('KXB-', toString(number), '-NO'))`;
  const close = `fromUnixTimestamp64Milli(toInt64(${close0} + intDiv(number * ${span}, ${total})))`;
  // The market's "true" probability, from which its prices and its outcome are drawn.
  const p = `(cityHash64(number, 3) % 1000) / 1000.`;
  const wins = `(cityHash64(number, 4) % 1000) / 1000. < ${p}`;
  await stores.writer.command({
    query: `INSERT INTO market_outcomes (venue, market, venue_market_id, outcome_ids, state, venue_state, winning_outcome_id, settlement_value, closed_time, venue_time, received_time, source, resolution_source, raw)
      SELECT ${venue}, ${market}, toString(number), [${yes}, ${no}], 'settled', 'finalized',
        if(number % 100 = 0, NULL, if(${wins}, ${yes}, ${no})), if(number % 100 = 0, 0.5, if(${wins}, 1., 0.)),
        ${close}, ${close} + toIntervalHour(2), ${close} + toIntervalHour(2), 'synthetic', NULL, '{}'
      FROM numbers(${total})`,
  });
  await stores.writer.command({
    query: `INSERT INTO market_outcomes (venue, market, venue_market_id, outcome_ids, state, venue_state, winning_outcome_id, settlement_value, closed_time, venue_time, received_time, source, resolution_source, raw)
      SELECT ${venue}, ${market}, toString(number), [${yes}, ${no}], 'closed', 'closed', NULL, NULL, ${close}, ${close}, ${close}, 'synthetic', NULL, '{}'
      FROM numbers(${total}) WHERE number % 10 = 0`,
  });
  const noisy = (salt: number) => `greatest(0.01, least(0.99, round(${p} + ((cityHash64(number, ${salt}) % 200) - 100) / 1000., 2)))`;
  await stores.writer.command({
    query: `INSERT INTO ${internal}.catalog_price_snapshots (snapshot_at, venue, market_id, outcome_id, price, best_bid, best_ask, volume_24h)
      SELECT ${close} - toIntervalMillisecond(arrayJoin([${2 * H}, ${3 * D}, ${20 * D}]) AS back), ${venue}, generateUUIDv4(number), ${yes}, ${noisy(5)}, NULL, NULL, NULL
      FROM numbers(${total})`,
  });
  for (const [v, table] of [
    [0, "polymarket_orderbook_rust"],
    [3, "kalshi_orderbook"],
  ] as const) {
    await stores.writer.command({
      query: `INSERT INTO ${table} (timestamp, timestamp_received, market, event_type, data)
        SELECT ${close} - toIntervalMillisecond(back) AS ts, ts, ${market}, if(back = ${40 * D}, 'book', 'price_change'),
          if(back = ${40 * D},
            concat('{"asset_id":"', ${yes}, '","bids":[["', toString(${noisy(6)} - 0.01), '","10"]],"asks":[["', toString(${noisy(6)} + 0.01), '","10"]],"hash":"h","tick_size":"0.01"}'),
            concat('{"asset_id":"', ${yes}, '","price":"0.5","size":"1","side":"BUY","best_bid":"', toString(${noisy(9)} - 0.01), '","best_ask":"', toString(${noisy(9)} + 0.01), '","hash":"c"}'))
        FROM numbers(${total}) ARRAY JOIN [${40 * D}, ${10 * D}, ${2 * D}, ${6 * H}, ${20 * 60_000}] AS back
        WHERE number % 5 = ${v}`,
    });
  }
  report(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s (${loadLine("after generating")})`);

  const email = `bench-calibration-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const { key } = await createApiKey(db, account.id, "bench");

  const api = async (): Promise<{ ms: number; figures: Figure[] }> => {
    const { ms, result } = await timed(async () => {
      const response = await calibrationRoute(new Request(`http://localhost/v0/calibration?since=${since}&until=${until}`, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({}) });
      const body = (await response.json()) as { data: Figure[] };
      if (response.status !== 200) throw new Error(`calibration answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return body.data;
    });
    return { ms, figures: result };
  };
  const hand = async (): Promise<{ ms: number; figures: Figure[] }> => {
    const { ms, result } = await timed(async () => {
      return tickRows<[string, string | number, string | number, number]>(stores.service, handWritten(internal, since, until));
    });
    return { ms, figures: result.map(([venue, h, n, brier]) => ({ venue, horizonMs: Number(h), count: Number(n), brier })) };
  };

  const apiTimes: number[] = [];
  const handTimes: number[] = [];
  let last: { api: Figure[]; hand: Figure[] } = { api: [], hand: [] };
  for (let i = 0; i < runs; i += 1) {
    const a = await api();
    const b = await hand();
    apiTimes.push(a.ms);
    handTimes.push(b.ms);
    last = { api: a.figures, hand: b.figures };
    report(`run ${i + 1}: GET /v0/calibration ${(a.ms / 1000).toFixed(2)} s, hand-written query ${(b.ms / 1000).toFixed(2)} s (${loadLine("now")})`);
  }
  let same = last.api.length === last.hand.length && last.api.length > 0;
  report("\n| venue | horizon | markets (API) | markets (query) | Brier (API) | Brier (query) |\n|---|---|---|---|---|---|");
  for (const figure of last.hand) {
    const mine = last.api.find((f) => f.venue === figure.venue && f.horizonMs === figure.horizonMs);
    const equal = mine !== undefined && mine.count === figure.count && Math.abs((mine.brier ?? NaN) - (figure.brier ?? NaN)) < 1e-9;
    same &&= equal;
    report(`| ${figure.venue} | ${figure.horizonMs / H} h | ${mine?.count ?? "–"} | ${figure.count} | ${mine?.brier?.toFixed(6) ?? "–"} | ${figure.brier?.toFixed(6)} |${equal ? "" : " DIFFERS"}`);
  }
  const ratio = median(apiTimes) / median(handTimes);
  report(
    `\ncalibration: API median ${(median(apiTimes) / 1000).toFixed(2)} s, hand-written query median ${(median(handTimes) / 1000).toFixed(2)} s, ratio ${ratio.toFixed(2)} (target ≤ 1.5), figures ${same ? "identical" : "DIFFER"}; ${runs} runs each, ${loadLine("at the end")}`,
  );
  if (!same) process.exitCode = 1;
  if (values["calibration-profile"] === true) await profile(report, stores.service, internal, since, until);
}

/**
 * Where the API's time goes, each part alone and one after the other: the venue list, each venue's
 * one aggregate query (lib/calibration/plan.ts) through venueFigures, against the hand-written query.
 */
async function profile(report: (line: string) => void, ticks: TickReader, internal: string, since: number, until: number): Promise<void> {
  const { venuesWithOutcomes, outcomesTable } = await import("@/lib/calibration/sources");
  const { venueFigures } = await import("@/lib/calibration/service");
  const { recordedVenueTables } = await import("@/lib/ticks/published");
  const { priceSnapshotsTable } = await import("@/lib/ticks/ddl/0002_catalog_price_snapshots");
  const { parseHorizon } = await import("@/lib/calibration/shapes");
  const { tickRows } = await import("@/lib/ticks");
  const horizons = ["1h", "1d", "7d", "30d"].map((text) => parseHorizon(text)).filter((h) => h !== undefined);
  const parts: Array<[string, () => Promise<unknown>]> = [
    ["venues with outcomes (SELECT DISTINCT venue)", () => venuesWithOutcomes(ticks)],
    ...["polymarket", "kalshi"].map(
      (venue): [string, () => Promise<unknown>] => [
        `${venue}: its aggregate query (venueFigures)`,
        () => venueFigures(ticks, { outcomes: outcomesTable, books: venue === "kalshi" ? recordedVenueTables.kalshi : recordedVenueTables.polymarket, snapshots: `${internal}.${priceSnapshotsTable}` }, { venue, since, until, horizons, bins: 10, markets: undefined }),
      ],
    ),
    ["hand-written query (both venues)", () => tickRows(ticks, handWritten(internal, since, until))],
  ];
  report("\n| part (alone, in turn) | time |\n|---|---|");
  for (const [label, task] of parts) report(`| ${label} | ${((await timed(task)).ms / 1000).toFixed(2)} s |`);
}
