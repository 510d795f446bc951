import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/v0/sql/route";
import { KalshiNormalizer } from "@/lib/recorder/kalshi/normalize";
import { insertTickRows } from "@/lib/recorder/writer";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { replayColumns } from "@/lib/ticks/ddl/0007_replay_columns";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { engineTime, shiftedFixtureFrames, writeFrames } from "./fakes/tick-rows";

// The shared auth suite sends the plan's whole per-minute allowance: keep it small here.
vi.hoisted(() => {
  process.env.RATE_LIMIT_ENTERPRISE = "40";
});

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as {
  M1: { cond: string; yes: string; no: string };
};
const frames = shiftedFixtureFrames();

type Obj = Record<string, unknown>;
interface SqlBody {
  data: Obj[];
  meta: { columns: Array<{ name: string; type: string }>; rows: number; rows_capped: boolean; statistics: Obj };
}

const candleSql = `SELECT toStartOfHour(timestamp) AS hour,
       argMin(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS open,
       argMax(toFloat64OrZero(JSONExtractString(data, 'best_bid')), timestamp) AS close,
       min(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS low,
       max(toFloat64OrZero(JSONExtractString(data, 'best_bid'))) AS high,
       count() AS ticks
FROM polymarket_orderbook_rust
WHERE market = '${ids.M1.cond}' AND event_type = 'price_change'
  AND JSONExtractString(data, 'asset_id') = '${ids.M1.yes}'
  AND timestamp >= now() - INTERVAL 7 DAY
GROUP BY hour ORDER BY hour;`;

const bookSql = `SELECT timestamp, JSONExtractString(data, 'asset_id') AS asset_id,
       JSONExtractRaw(data, 'bids') AS bids, JSONExtractRaw(data, 'asks') AS asks
FROM polymarket_orderbook_rust
WHERE market = '${ids.M1.cond}' AND event_type = 'book'
  AND JSONExtractString(data, 'asset_id') = '${ids.M1.yes}'
ORDER BY timestamp DESC LIMIT 20;`;

const depthSql = `SELECT timestamp, JSONLength(JSONExtractRaw(data, 'bids')) AS bid_levels,
       JSONLength(JSONExtractRaw(data, 'asks')) AS ask_levels
FROM polymarket_orderbook_rust
WHERE market = '${ids.M1.cond}' AND event_type = 'book'
ORDER BY timestamp DESC LIMIT 100;`;

/** Every event of the shifted frames, parsed here without the recorder's code. */
function events(): Obj[] {
  return frames.flatMap((line) => {
    const parsed = JSON.parse(line) as Obj | Obj[];
    return Array.isArray(parsed) ? parsed : [parsed];
  });
}

let stores: TickStores;
let key: string;

async function sql(query: string, format?: string) {
  return callRoute(POST, { path: `/v0/sql${format === undefined ? "" : `?format=${format}`}`, key, body: { query } });
}

beforeAll(async () => {
  stores = await getTickStores();
  await writeFrames(stores, frames);
  ({ key } = await makeKey("enterprise"));
  // 12,000 rows in one market for the row cap, generated inside the engine.
  await stores.writer.command({
    query: `INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data)
      SELECT now64(3) - toIntervalMillisecond(number), now64(3), 'many', 'price_change', concat('{"n":', toString(number), '}') FROM numbers(12000)`,
  });
});

describeKeyedRoute({
  name: "POST /v0/sql",
  handler: POST,
  request: { path: "/v0/sql", body: { query: "SELECT 1 AS one" } },
  surface: "v0",
  plan: "enterprise",
});

describe("POST /v0/sql", () => {
  it("refuses free and pro plans with 403 sql_access_denied naming the plan", async () => {
    for (const plan of ["free", "pro"] as const) {
      const { key: lowKey } = await makeKey(plan);
      const res = await callRoute(POST, { path: "/v0/sql", key: lowKey, body: { query: "SELECT 1" } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: { code: "sql_access_denied", requiredPlan: "enterprise", plan } });
      expect((res.body as { error: { message: string } }).error.message).toContain("enterprise");
    }
  });

  it("answers the candle pattern verbatim with candles computed independently from the frames", async () => {
    const ticks = events()
      .filter((e) => e.event_type === "price_change" && e.market === ids.M1.cond)
      .flatMap((e) =>
        (e.price_changes as Obj[])
          .filter((c) => c.asset_id === ids.M1.yes)
          .map((c) => ({ ts: Number(e.timestamp), bid: Number(c.best_bid) })),
      )
      .sort((a, b) => a.ts - b.ts);
    const byHour = new Map<number, Array<{ ts: number; bid: number }>>();
    for (const tick of ticks) {
      const hour = Math.floor(tick.ts / 3_600_000) * 3_600_000;
      byHour.set(hour, [...(byHour.get(hour) ?? []), tick]);
    }
    const expected = [...byHour.entries()].map(([hour, list]) => ({
      hour: engineTime(hour, false),
      open: list[0]?.bid,
      close: list[list.length - 1]?.bid,
      low: Math.min(...list.map((t) => t.bid)),
      high: Math.max(...list.map((t) => t.bid)),
      ticks: list.length,
    }));
    expect(expected.length).toBe(2);

    const res = await sql(candleSql);
    expect(res.status).toBe(200);
    const body = res.body as SqlBody;
    expect(body.data).toEqual(expected);
    expect(body.meta.columns).toEqual([
      { name: "hour", type: "DateTime" },
      { name: "open", type: "Float64" },
      { name: "close", type: "Float64" },
      { name: "low", type: "Float64" },
      { name: "high", type: "Float64" },
      { name: "ticks", type: "UInt64" },
    ]);
    expect(body.meta.rows).toBe(2);
    expect(body.meta.rows_capped).toBe(false);
    expect(res.headers.get("x-rows-capped")).toBe("false");
    expect(body.meta.statistics).toMatchObject({ rows_read: expect.any(Number), bytes_read: expect.any(Number), elapsed: expect.any(Number) });
  });

  it("answers the book pattern verbatim: latest books, levels as [price, size] pairs in wire order", async () => {
    const books = events()
      .filter((e) => e.event_type === "book" && e.asset_id === ids.M1.yes)
      .sort((a, b) => Number(b.timestamp) - Number(a.timestamp))
      .map((e) => ({
        timestamp: engineTime(Number(e.timestamp), true),
        asset_id: ids.M1.yes,
        bids: JSON.stringify((e.bids as Obj[]).map((l) => [l.price, l.size])),
        asks: JSON.stringify((e.asks as Obj[]).map((l) => [l.price, l.size])),
      }));
    const res = await sql(bookSql);
    expect(res.status).toBe(200);
    expect((res.body as SqlBody).data).toEqual(books);
    expect((res.body as SqlBody).meta.columns[0]).toEqual({ name: "timestamp", type: "DateTime64(3)" });
  });

  it("answers the depth pattern verbatim", async () => {
    const depth = events()
      .filter((e) => e.event_type === "book" && e.market === ids.M1.cond)
      .sort((a, b) => Number(b.timestamp) - Number(a.timestamp))
      .map((e) => ({
        timestamp: engineTime(Number(e.timestamp), true),
        bid_levels: (e.bids as unknown[]).length,
        ask_levels: (e.asks as unknown[]).length,
      }));
    const res = await sql(depthSql);
    expect(res.status).toBe(200);
    expect((res.body as SqlBody).data).toEqual(depth);
  });

  it("fails a tick-table query without a market filter at once with 400 naming market", async () => {
    const started = performance.now();
    const res = await sql("SELECT count() FROM polymarket_orderbook_rust WHERE timestamp > now() - INTERVAL 1 DAY");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: "query_error", reason: "market_filter" } });
    expect((res.body as { error: { message: string } }).error.message).toMatch(/market/);
  });

  it("caps results at 10,000 rows, flagged in meta and header; a smaller LIMIT is not flagged", async () => {
    const capped = await sql("SELECT timestamp, data FROM polymarket_orderbook_rust WHERE market = 'many'");
    expect(capped.status).toBe(200);
    expect((capped.body as SqlBody).meta.rows).toBe(10_000);
    expect((capped.body as SqlBody).data).toHaveLength(10_000);
    expect((capped.body as SqlBody).meta.rows_capped).toBe(true);
    expect(capped.headers.get("x-rows-capped")).toBe("true");

    const limited = await sql("SELECT data FROM polymarket_orderbook_rust WHERE market = 'many' LIMIT 20");
    expect((limited.body as SqlBody).meta.rows).toBe(20);
    expect((limited.body as SqlBody).meta.rows_capped).toBe(false);
    const count = await sql("SELECT count() AS n FROM polymarket_orderbook_rust WHERE market = 'many'");
    expect((count.body as SqlBody).data).toEqual([{ n: 12_000 }]);
  });

  it("exports the same capped result as CSV and Parquet", async () => {
    const query = "SELECT timestamp, data FROM polymarket_orderbook_rust WHERE market = 'many' ORDER BY timestamp";
    const asJson = (await sql(query)).body as SqlBody;
    const csv = await sql(query, "csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toContain("attachment");
    expect(csv.headers.get("x-rows-capped")).toBe("true");
    const lines = csv.text.trimEnd().split("\n");
    expect(lines).toHaveLength(10_001);
    expect(lines[0]).toBe('"timestamp","data"');
    const firstRow = asJson.data[0];
    expect(lines[1]).toBe(`"${String(firstRow?.timestamp)}","${String(firstRow?.data).replace(/"/g, '""')}"`);

    const parquet = await callRoute(POST, { path: "/v0/sql?format=parquet", key, body: { query } });
    expect(parquet.status).toBe(200);
    expect(parquet.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    // Read the download back with the engine: same rows, same order.
    const raw = await POST(
      new Request("http://localhost/v0/sql?format=parquet", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ query }),
      }),
      { params: Promise.resolve({}) },
    );
    const file = path.join(tmpdir(), `brier-sql-test-${process.pid}.parquet`);
    writeFileSync(file, Buffer.from(await raw.arrayBuffer()));
    try {
      const back = await stores.writer.query({
        query: `SELECT count() AS n, min(data) AS lo, max(data) AS hi FROM file({f:String}, Parquet)`,
        query_params: { f: file },
        format: "JSONEachRow",
      });
      const datas = asJson.data.map((row) => String(row.data)).sort();
      expect(await back.json()).toEqual([{ n: 10_000, lo: datas[0], hi: datas[datas.length - 1] }]);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("answers DESCRIBE, SHOW TABLES and EXPLAIN of the tick table", async () => {
    const describe = await sql("DESCRIBE TABLE polymarket_orderbook_rust");
    expect(describe.status).toBe(200);
    // The five stored columns, then the replay columns the engine derives from `data` at insert (MATERIALIZED: not in SELECT *).
    expect((describe.body as SqlBody).data.map((row) => row.name)).toEqual(["timestamp", "timestamp_received", "market", "event_type", "data", ...replayColumns]);
    expect((describe.body as SqlBody).data.map((row) => row.default_type)).toEqual([...Array<string>(5).fill(""), ...replayColumns.map(() => "MATERIALIZED")]);
    const star = await sql(`SELECT * FROM polymarket_orderbook_rust WHERE market = '${ids.M1.cond}' LIMIT 1`);
    expect((star.body as SqlBody).meta.columns.map((column) => column.name)).toEqual(["timestamp", "timestamp_received", "market", "event_type", "data"]);
    const show = await sql("SHOW TABLES");
    expect((show.body as SqlBody).data).toEqual([{ name: "kalshi_orderbook" }, { name: "market_outcomes" }, { name: "polymarket_orderbook_rust" }]);
    const explain = await sql(`EXPLAIN SELECT count() FROM polymarket_orderbook_rust WHERE market = '${ids.M1.cond}'`);
    expect(explain.status).toBe(200);
  });

  it("queries kalshi_orderbook like the Polymarket table: the market filter is the Kalshi ticker", async () => {
    const normalizer = new KalshiNormalizer();
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
    const frames = [
      { type: "orderbook_snapshot", sid: 1, seq: 1, msg: { market_ticker: "KXSQL-1", market_id: "m", yes_dollars_fp: [["0.4000", "10.00"]], no_dollars_fp: [["0.5500", "4.00"]] } },
      { type: "orderbook_delta", sid: 1, seq: 2, msg: { market_ticker: "KXSQL-1", price_dollars: "0.4200", delta_fp: "3.00", side: "yes", ts_ms: hour + 60_000 } },
      { type: "orderbook_delta", sid: 1, seq: 3, msg: { market_ticker: "KXSQL-1", price_dollars: "0.4200", delta_fp: "-3.00", side: "yes", ts_ms: hour + 120_000 } },
    ];
    await insertTickRows(stores.writer, frames.flatMap((f) => normalizer.normalize(JSON.stringify(f), hour).rows), "kalshi_orderbook");
    const candles = await sql(candleSql.replace("polymarket_orderbook_rust", "kalshi_orderbook").replace(ids.M1.cond, "KXSQL-1").replace(ids.M1.yes, "KXSQL-1"));
    expect(candles.status).toBe(200);
    // Best bid 0.42 after the first change, back to 0.40 after the second: open 0.42, close 0.40.
    expect((candles.body as SqlBody).data).toEqual([{ hour: engineTime(hour, false), open: 0.42, close: 0.4, low: 0.4, high: 0.42, ticks: 2 }]);
    const unfiltered = await sql("SELECT count() FROM kalshi_orderbook");
    expect(unfiltered.status).toBe(400);
    expect(unfiltered.body).toMatchObject({ error: { code: "query_error", reason: "market_filter" } });
  });

  it("refuses bad bodies with clear 400s and bodies over 64 KiB with 413", async () => {
    expect((await callRoute(POST, { path: "/v0/sql", key, body: "{nope" })).body).toMatchObject({ error: { code: "invalid_body" } });
    expect((await callRoute(POST, { path: "/v0/sql", key, body: { query: 5 } })).status).toBe(400);
    expect((await callRoute(POST, { path: "/v0/sql", key, body: { query: "" } })).status).toBe(400);
    expect((await callRoute(POST, { path: "/v0/sql", key, body: { query: "SELECT 1", extra: 1 } })).status).toBe(400);
    expect((await callRoute(POST, { path: "/v0/sql?format=xml", key, body: { query: "SELECT 1" } })).body).toMatchObject({
      error: { code: "invalid_parameter", parameter: "format" },
    });
    expect((await callRoute(POST, { path: "/v0/sql?format=csv&format=json", key, body: { query: "SELECT 1" } })).body).toMatchObject({
      error: { code: "invalid_parameter", parameter: "format", message: "format was sent more than once" },
    });
    const big = await callRoute(POST, { path: "/v0/sql", key, body: { query: `SELECT '${"x".repeat(70_000)}'` } });
    expect(big.status).toBe(413);
  });

  it("cancels a query past 5 s with 408, caps concurrent queries per key, and the next query is clean", async () => {
    await stores.writer.command({
      query: `INSERT INTO polymarket_orderbook_rust (timestamp, timestamp_received, market, event_type, data)
        SELECT now64(3) - toIntervalMillisecond(number), now64(3), 'slow', 'book', '{}' FROM numbers(200000)`,
    });
    const slow = "SELECT count() FROM polymarket_orderbook_rust AS a, polymarket_orderbook_rust AS b WHERE a.market = 'slow' AND b.market = 'slow'";
    const started = performance.now();
    const answers = await Promise.all([sql(slow), sql(slow), sql(slow)]);
    // The three race through admission; whichever arrives third finds both slots taken.
    expect(answers.map((a) => a.status).sort()).toEqual([408, 408, 429]);
    const timedOut = answers.filter((a) => a.status === 408);
    for (const answer of timedOut) expect(answer.body).toMatchObject({ error: { code: "query_timeout" } });
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.headers.get("retry-after")).toBe("1");
    expect(performance.now() - started).toBeLessThan(20_000);
    const after = await sql("SELECT 42 AS answer");
    expect((after.body as SqlBody).data).toEqual([{ answer: 42 }]);
  }, 40_000);
});
