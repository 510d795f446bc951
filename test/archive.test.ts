import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, renameSync, truncateSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as fileRoute, HEAD as fileHead } from "@/app/v0/archive/[venue]/[date]/[file]/route";
import { GET as manifestRoute } from "@/app/v0/archive/manifest/route";
import { pullArchive, type ManifestFile } from "@/lib/archive/pull";
import { prepareRecentFiles } from "@/lib/archive/schedule";
import { KalshiNormalizer } from "@/lib/recorder/kalshi/normalize";
import { insertTickRows } from "@/lib/recorder/writer";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { getDb } from "@/lib/db";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { resolutionRecord } from "./helpers/resolutions";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { serveRoutes } from "./helpers/http-routes";
import { makeKey } from "./helpers/keys";
import type { RouteHandler } from "./helpers/routes";
import { fixtureFrames } from "./fakes/market-channel";
import { writeFrames } from "./fakes/tick-rows";

vi.hoisted(() => {
  process.env.RATE_LIMIT_ENTERPRISE = "45";
  process.env.RATE_LIMIT_FREE = "12";
});

type Obj = Record<string, unknown>;
interface ManifestHourBody {
  hour: string;
  rows: number;
  checksum: string;
  condition: string;
  file: ManifestFile | null;
}

const DAY = "2026-06-13";
const KALSHI_HOUR = Date.UTC(2026, 5, 14, 9);
let stores: TickStores;
let server: { url: string; close: () => Promise<void> };
let key: string;
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

const routes = [
  { pattern: "/v0/archive/manifest", handlers: { GET: manifestRoute as RouteHandler<Record<string, string>> } },
  { pattern: "/v0/archive/:venue/:date/:file", handlers: { GET: fileRoute as RouteHandler<Record<string, string>>, HEAD: fileHead as RouteHandler<Record<string, string>> } },
];

async function get(pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return fetch(`${server.url}${pathname}`, { method, headers: { authorization: `Bearer ${key}`, ...headers } });
}

async function manifest(venue: string, date: string): Promise<ManifestHourBody[]> {
  const res = await get(`/v0/archive/manifest?date=${date}&venue=${venue}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { hours: ManifestHourBody[] } }).data.hours;
}

/** The rows of a Parquet file as the engine reads it back, in file order, as the manifest's checksum lines. */
async function parquetLines(bytes: Uint8Array): Promise<string[]> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "brier-parquet-")), "hour.parquet");
  writeFileSync(file, bytes);
  const result = await stores.writer.query({
    query: `SELECT toUnixTimestamp64Milli(timestamp), market, event_type, data FROM file('${file}', Parquet)`,
    format: "JSONCompactEachRow",
  });
  return (await result.json<[number | string, string, string, string]>()).map(([ts, market, type, data]) => `${ts}\t${market}\t${type}\t${data}\n`);
}

/** Kalshi activity in a past hour, normalized as the recorder would have received it then. */
async function writeKalshiHour(): Promise<void> {
  const normalizer = new KalshiNormalizer();
  const frames = [
    { type: "orderbook_snapshot", sid: 1, seq: 1, msg: { market_ticker: "KXTEST-1", market_id: "m1", yes_dollars_fp: [["0.4000", "10.00"]], no_dollars_fp: [["0.5500", "4.00"]] } },
    { type: "orderbook_delta", sid: 1, seq: 2, msg: { market_ticker: "KXTEST-1", price_dollars: "0.4100", delta_fp: "3.00", side: "yes", ts_ms: KALSHI_HOUR + 60_000 } },
    { type: "trade", sid: 2, msg: { trade_id: "t1", market_ticker: "KXTEST-1", yes_price_dollars: "0.4100", no_price_dollars: "0.5900", count_fp: "2.00", taker_side: "yes", ts: (KALSHI_HOUR + 120_000) / 1000 } },
  ];
  const rows = frames.flatMap((frame) => normalizer.normalize(JSON.stringify(frame), KALSHI_HOUR + 1_000).rows);
  await insertTickRows(stores.writer, rows, "kalshi_orderbook");
}

beforeAll(async () => {
  stores = await getTickStores();
  await writeFrames(stores, fixtureFrames);
  await writeFrames(stores, fixtureFrames); // a replay: the files count each event once
  await writeKalshiHour();
  key = (await makeKey("enterprise")).key;
  server = await serveRoutes(routes);
});

afterAll(async () => {
  await server.close();
});

describe("GET /v0/archive/{venue}/{date}/{HH}.parquet", () => {
  it("streams a closed hour as Parquet: the manifest's rows in its order, ETag = its checksum, size and SHA-256 as listed", async () => {
    const hours = await manifest("polymarket", DAY);
    const withFiles = hours.filter((hour) => hour.file !== null);
    expect(withFiles.map((hour) => hour.hour)).toEqual(["2026-06-13T11:00:00.000Z", "2026-06-13T12:00:00.000Z"]);
    for (const hour of withFiles) {
      const file = hour.file as ManifestFile;
      expect(file.url).toBe(`/v0/archive/polymarket/${DAY}/${hour.hour.slice(11, 13)}.parquet`);
      const res = await get(file.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/vnd.apache.parquet");
      expect(res.headers.get("etag")).toBe(`"${hour.checksum}"`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.length).toBe(file.bytes);
      expect(sha256(bytes)).toBe(file.sha256);
      expect(Buffer.from(bytes.subarray(0, 4)).toString()).toBe("PAR1");
      const lines = await parquetLines(bytes);
      expect(lines).toHaveLength(hour.rows);
      expect(sha256(lines.join(""))).toBe(hour.checksum);
    }
    // Every hour without rows lists no file.
    expect(hours.filter((hour) => hour.file === null).every((hour) => hour.rows === 0)).toBe(true);
  });

  it("answers Range, If-Range, If-None-Match and HEAD consistently with the full file", async () => {
    const [hour] = (await manifest("polymarket", DAY)).filter((h) => h.file !== null);
    const file = hour?.file as ManifestFile;
    const full = new Uint8Array(await (await get(file.url)).arrayBuffer());
    const part = await get(file.url, { range: "bytes=100-1099" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1099/${file.bytes}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(full.subarray(100, 1100)))).toBe(true);
    const tail = await get(file.url, { range: "bytes=-64" });
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(full.subarray(full.length - 64)))).toBe(true);
    const open = await get(file.url, { range: `bytes=${file.bytes - 10}-` });
    expect((await open.arrayBuffer()).byteLength).toBe(10);
    expect((await get(file.url, { range: `bytes=${file.bytes}-` })).status).toBe(416);
    // A range of another version of the hour is not served: the whole current file is.
    const stale = await get(file.url, { range: "bytes=0-9", "if-range": '"0000"' });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(file.bytes);
    expect((await get(file.url, { "if-none-match": `"${file.checksum}"` })).status).toBe(304);
    const head = await get(file.url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(file.bytes));
    expect(head.headers.get("etag")).toBe(`"${file.checksum}"`);
    expect(head.headers.get("accept-ranges")).toBe("bytes");
  });

  it("404s an hour without rows with its coverage condition, and refuses an hour not closed yet", async () => {
    const missing = await get(`/v0/archive/polymarket/${DAY}/05.parquet`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: Obj }).error).toMatchObject({ code: "not_found", condition: "missing", hour: "2026-06-13T05:00:00.000Z" });
    const now = new Date();
    const current = await get(`/v0/archive/kalshi/${now.toISOString().slice(0, 10)}/${now.toISOString().slice(11, 13)}.parquet`);
    expect(current.status).toBe(400);
    expect(((await current.json()) as { error: Obj }).error).toMatchObject({ code: "invalid_parameter", parameter: "hour" });
    for (const [pathname, parameter] of [
      [`/v0/archive/limitless/${DAY}/11.parquet`, "venue"],
      [`/v0/archive/polymarket/2026-02-30/11.parquet`, "date"],
      [`/v0/archive/polymarket/${DAY}/24.parquet`, "hour"],
      [`/v0/archive/polymarket/${DAY}/11.csv`, "hour"],
    ] as const) {
      const res = await get(pathname);
      expect(res.status, pathname).toBe(400);
      expect(((await res.json()) as { error: Obj }).error.parameter, pathname).toBe(parameter);
    }
  });

  it("serves Kalshi's hours from kalshi_orderbook, listed by the manifest with venue=kalshi", async () => {
    const hours = await manifest("kalshi", "2026-06-14");
    const hour = hours.find((h) => h.file !== null);
    expect(hour?.hour).toBe(new Date(KALSHI_HOUR).toISOString());
    expect(hour?.rows).toBe(6); // two books, two price changes, two trades
    const bytes = new Uint8Array(await (await get(hour?.file?.url ?? "")).arrayBuffer());
    const lines = await parquetLines(bytes);
    expect(lines.every((line) => line.includes("\tKXTEST-1\t"))).toBe(true);
    expect(sha256(lines.join(""))).toBe(hour?.checksum);

    // A late row in the closed hour: the stored stats are rebuilt, the ETag and the file change.
    const late = new KalshiNormalizer().normalize(
      JSON.stringify({ type: "trade", sid: 2, msg: { trade_id: "t2", market_ticker: "KXTEST-1", yes_price_dollars: "0.4200", count_fp: "1.00", taker_side: "no", ts_ms: KALSHI_HOUR + 180_000 } }),
      KALSHI_HOUR + 181_000,
    );
    await insertTickRows(stores.writer, late.rows, "kalshi_orderbook");
    const after = (await manifest("kalshi", "2026-06-14")).find((h) => h.hour === hour?.hour);
    expect(after?.rows).toBe(8);
    expect(after?.checksum).not.toBe(hour?.checksum);
    const res = await get(hour?.file?.url ?? "");
    expect(res.headers.get("etag")).toBe(`"${after?.checksum}"`);
    const rebuilt = new Uint8Array(await res.arrayBuffer());
    expect(sha256(rebuilt)).toBe(after?.file?.sha256);
    expect(await parquetLines(rebuilt)).toHaveLength(8);
  });
});

describe("archive schedule", () => {
  it("builds the stats of the last day's closed hours of both venues ahead of any request", async () => {
    await stores.writer.command({ query: "TRUNCATE TABLE default_brier_internal.archive_files" });
    // From 2026-06-14 12:05: the last 24 closed hours and the rest of the previous UTC day, so every
    // Polymarket hour of 2026-06-13 with rows, and the Kalshi hour 2026-06-14 09:00.
    const day = await manifest("polymarket", DAY);
    const polymarketHours = day.filter((hour) => hour.rows > 0).map((hour) => Date.parse(hour.hour));
    expect(polymarketHours.length).toBeGreaterThan(1);
    expect(polymarketHours[0]).toBeLessThan(Date.UTC(2026, 5, 13, 12));
    await stores.writer.command({ query: "TRUNCATE TABLE default_brier_internal.archive_files" });
    expect(await prepareRecentFiles(stores, Date.UTC(2026, 5, 14, 12, 5))).toBe(polymarketHours.length + 1);
    const built = await (
      await stores.writer.query({ query: "SELECT venue, toUnixTimestamp(hour) * 1000 AS hour, checksum FROM default_brier_internal.archive_files FINAL ORDER BY hour", format: "JSONEachRow" })
    ).json<{ venue: string; hour: number | string; checksum: string }>();
    expect(built.map((row) => [row.venue, Number(row.hour)])).toEqual([...polymarketHours.map((hour) => ["polymarket", hour]), ["kalshi", KALSHI_HOUR]]);
    const listed = (await manifest("polymarket", DAY)).find((hour) => hour.hour === "2026-06-13T12:00:00.000Z");
    expect(built.find((row) => Number(row.hour) === Date.UTC(2026, 5, 13, 12))?.checksum).toBe(listed?.checksum);
  });

  it("shares one build of an hour between two askers at once (the schedule and a manifest)", async () => {
    await stores.writer.command({ query: "TRUNCATE TABLE default_brier_internal.archive_files" });
    const at = Date.UTC(2026, 5, 14, 12, 5);
    const [first, second] = await Promise.all([prepareRecentFiles(stores, at), prepareRecentFiles(stores, at)]);
    expect(first).toBeGreaterThan(1);
    expect(second).toBe(first);
    // Without FINAL: every insert of the hour's stats, one per build.
    const inserted = await (
      await stores.writer.query({
        query: "SELECT checksum FROM default_brier_internal.archive_files WHERE venue = 'polymarket' AND hour = toDateTime({hour:UInt32}, 'UTC')",
        query_params: { hour: Date.UTC(2026, 5, 13, 12) / 1000 },
        format: "JSONEachRow",
      })
    ).json<{ checksum: string }>();
    expect(inserted).toHaveLength(1);
    expect(inserted[0]?.checksum).toBe((await manifest("polymarket", DAY)).find((hour) => hour.hour === "2026-06-13T12:00:00.000Z")?.checksum);
  });
});

describe("GET /v0/archive/{venue}/{date}/outcomes.parquet", () => {
  const OUT_DAY = "2026-06-15";
  const t = (hhmm: string, day = OUT_DAY) => new Date(`${day}T${hhmm}:00.000Z`);
  type OutcomesEntry = ManifestFile & { markets: number };
  async function outcomesOf(venue: string, date: string): Promise<OutcomesEntry | null> {
    const res = await getOut(`/v0/archive/manifest?date=${date}&venue=${venue}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { outcomes: OutcomesEntry | null } }).data.outcomes;
  }
  /** The rows of an outcomes file as the engine reads it back, in file order. */
  async function outcomeRows(bytes: Uint8Array): Promise<Array<Array<string | null>>> {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "brier-parquet-")), "outcomes.parquet");
    writeFileSync(file, bytes);
    const result = await stores.writer.query({
      query: `SELECT toString(received_time), market, state, ifNull(winning_outcome_id, ''), toString(settlement_value), source, raw FROM file('${file}', Parquet)`,
      format: "JSONCompactEachRow",
    });
    return result.json<Array<string | null>>();
  }
  let sink: ResolutionSink;
  // A key of its own: the file's enterprise rate limit (45) is the other tests' budget.
  let outKey: string;
  const getOut = (pathname: string, headers: Record<string, string> = {}, method = "GET") =>
    fetch(`${server.url}${pathname}`, { method, headers: { authorization: `Bearer ${outKey}`, ...headers } });

  beforeAll(async () => {
    outKey = (await makeKey("enterprise")).key;
    sink = new ResolutionSink(await getDb(), stores.writer);
    // Received on OUT_DAY: a market closed, determined and settled; another voided; a Polymarket change; and a change received the next day.
    const at = (venueMarketId: string, state: Parameters<typeof resolutionRecord>[0]["state"], hhmm: string, extra: Partial<Parameters<typeof resolutionRecord>[0]> = {}, day = OUT_DAY) =>
      resolutionRecord({ venueMarketId, state, venueTime: t(hhmm, day), receivedAt: t(hhmm, day), source: "rest", ...extra });
    await sink.record([at("KXOUT-1", "closed", "08:00", { closedAt: t("08:00") }), at("KXOUT-2", "closed", "08:30")]);
    await sink.record([at("KXOUT-1", "determined", "10:00", { winningOutcomeId: "KXOUT-1", settlementValue: 1 })]);
    await sink.record([at("KXOUT-2", "voided", "11:00", { venueState: "finalized" })]);
    await sink.record([at("KXOUT-1", "settled", "12:00", { winningOutcomeId: "KXOUT-1", settlementValue: 1, venueState: "finalized" })]);
    await sink.record([at("9301", "proposed", "09:00", { venue: "polymarket", market: `0x${"ef".repeat(32)}`, outcomeIds: ["93011", "93012"] })]);
    await sink.record([at("KXOUT-3", "closed", "01:00", {}, "2026-06-16")]);
  });

  it("lists a closed day's outcome changes in the manifest and serves them as Parquet: every row, in order, size and SHA-256 as listed", async () => {
    const entry = await outcomesOf("kalshi", OUT_DAY);
    expect(entry).toMatchObject({ url: `/v0/archive/kalshi/${OUT_DAY}/outcomes.parquet`, rows: 5, markets: 2 });
    const res = await getOut(entry?.url ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(res.headers.get("etag")).toBe(`"${entry?.sha256}"`);
    expect(res.headers.get("x-archive-rows")).toBe("5");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBe(entry?.bytes);
    expect(sha256(bytes)).toBe(entry?.sha256);
    const rows = await outcomeRows(bytes);
    expect(rows.map(([received, market, state, winner, value]) => [received, market, state, winner, value])).toEqual([
      [`${OUT_DAY} 08:00:00.000`, "KXOUT-1", "closed", "", null],
      [`${OUT_DAY} 08:30:00.000`, "KXOUT-2", "closed", "", null],
      [`${OUT_DAY} 10:00:00.000`, "KXOUT-1", "determined", "KXOUT-1", "1"],
      [`${OUT_DAY} 11:00:00.000`, "KXOUT-2", "voided", "", null],
      [`${OUT_DAY} 12:00:00.000`, "KXOUT-1", "settled", "KXOUT-1", "1"],
    ]);
    expect(rows[0]?.[6]).toBe(JSON.stringify({ state: "closed" }));
    // The Polymarket change is in Polymarket's file only; the next day's change in the next day's.
    expect(await outcomesOf("polymarket", OUT_DAY)).toMatchObject({ rows: 1, markets: 1 });
    expect(await outcomesOf("kalshi", "2026-06-16")).toMatchObject({ rows: 1, url: "/v0/archive/kalshi/2026-06-16/outcomes.parquet" });
    // The hours' entries are unchanged by it; with market= no file is listed.
    const market = await getOut(`/v0/archive/manifest?date=${OUT_DAY}&venue=kalshi&market=KXOUT-1`);
    expect(((await market.json()) as { data: { outcomes: unknown } }).data.outcomes).toBeNull();
  });

  it("answers Range, If-None-Match and HEAD, and rebuilds the file when a change reaches a closed day", async () => {
    const entry = await outcomesOf("kalshi", OUT_DAY);
    const url = entry?.url ?? "";
    const whole = new Uint8Array(await (await getOut(url)).arrayBuffer());
    const part = await getOut(url, { range: "bytes=10-99" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-99/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(Buffer.from(whole.subarray(10, 100)));
    expect((await getOut(url, { "if-none-match": `"${entry?.sha256}"` })).status).toBe(304);
    const head = await getOut(url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(whole.length));

    await sink.record([resolutionRecord({ venueMarketId: "KXOUT-4", state: "closed", venueTime: t("23:59"), receivedAt: t("23:59"), source: "rest" })]);
    const after = await outcomesOf("kalshi", OUT_DAY);
    expect(after).toMatchObject({ rows: 6, markets: 3 });
    expect(after?.sha256).not.toBe(entry?.sha256);
    const rebuilt = await getOut(url);
    expect(rebuilt.headers.get("etag")).toBe(`"${after?.sha256}"`);
    expect(sha256(new Uint8Array(await rebuilt.arrayBuffer()))).toBe(after?.sha256);
  });

  it("lists no file for a day not closed yet or without changes, and says why when one is asked for", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await outcomesOf("kalshi", today)).toBeNull();
    const open = await getOut(`/v0/archive/kalshi/${today}/outcomes.parquet`);
    expect(open.status).toBe(400);
    expect(((await open.json()) as { error: Obj }).error).toMatchObject({ code: "invalid_parameter", parameter: "date" });
    expect(await outcomesOf("kalshi", "2026-06-10")).toBeNull();
    const none = await getOut("/v0/archive/kalshi/2026-06-10/outcomes.parquet");
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: Obj }).error).toMatchObject({ code: "not_found", date: "2026-06-10" });
    const bad = await getOut(`/v0/archive/kalshi/${OUT_DAY}/outcome.parquet`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: Obj }).error).toMatchObject({ parameter: "hour", message: expect.stringContaining("outcomes.parquet") as unknown });
  });

  it("is pulled with the day's hours and verified against the manifest", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "brier-pull-outcomes-"));
    const pulled = await pullArchive({ baseUrl: server.url, apiKey: outKey, venue: "kalshi", from: OUT_DAY, to: OUT_DAY, dir });
    expect(pulled.mismatches).toBe(0);
    expect(pulled.files.map((f) => [path.relative(dir, f.path), f.outcome])).toEqual([[path.join("kalshi", OUT_DAY, "outcomes.parquet"), "downloaded"]]);
    const entry = await outcomesOf("kalshi", OUT_DAY);
    expect(sha256(readFileSync(pulled.files[0]?.path ?? ""))).toBe(entry?.sha256);
  });
});

describe("archive pull CLI", () => {
  it("names the URL and the reason when nothing answers there", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "brier-pull-unreachable-"));
    // A loopback port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await expect(pullArchive({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "brier_live_x", venue: "polymarket", from: "2026-11-20", to: "2026-11-20", dir })).rejects.toThrow(
      `could not reach http://127.0.0.1:${port}/v0/archive/manifest (ECONNREFUSED)`,
    );
  });

  it("downloads a day, resumes a partial file, verifies against the manifest, and fails on a file altered by one byte", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "brier-pull-"));
    const options = { baseUrl: server.url, apiKey: key, venue: "polymarket", from: DAY, to: DAY, dir };
    const first = await pullArchive(options);
    expect(first.mismatches).toBe(0);
    expect(first.files.map((f) => f.outcome)).toEqual(["downloaded", "downloaded"]);
    const [eleven, twelve] = first.files.map((f) => f.path);
    if (eleven === undefined || twelve === undefined) throw new Error("two files expected");

    // An interrupted download: half of the file left as .part is resumed with Range.
    renameSync(twelve, `${twelve}.part`);
    truncateSync(`${twelve}.part`, Math.floor(readFileSync(`${twelve}.part`).length / 2));
    const resumed = await pullArchive(options);
    expect(resumed.files.map((f) => f.outcome)).toEqual(["present", "resumed"]);
    expect(resumed.mismatches).toBe(0);

    // One byte altered: verification fails, and the CLI exits non-zero.
    const bytes = readFileSync(eleven);
    const middle = Math.floor(bytes.length / 2);
    bytes.writeUInt8((bytes.readUInt8(middle) + 1) % 256, middle);
    writeFileSync(eleven, bytes);
    const verified = await pullArchive({ ...options, verifyOnly: true });
    expect(verified.mismatches).toBe(1);
    expect(verified.files[0]).toMatchObject({ outcome: "mismatch" });
    expect(verified.files[0]?.problem).toContain("SHA-256");
    const cli = await promisify(execFile)("npx", ["tsx", "--conditions=react-server", "scripts/archive.ts", "verify", "--venue", "polymarket", "--from", DAY, "--to", DAY, "--dir", dir, "--url", server.url, "--key", key], { cwd: path.resolve(__dirname, "..") }).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`mismatch\t${eleven}`);
  });
});

describeKeyedRoute({ name: "GET /v0/archive/{venue}/{date}/{HH}.parquet", handler: fileRoute, request: { path: `/v0/archive/polymarket/${DAY}/11.parquet`, params: { venue: "polymarket", date: DAY, file: "11.parquet" } }, surface: "v0", plan: "enterprise" });
