import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as manifestRoute } from "@/app/v0/archive/manifest/route";
import { GET as coverageRoute } from "@/app/v0/coverage/route";
import { GET as incidentsRoute } from "@/app/v0/incidents/route";
import { GET as statusRoute } from "@/app/v0/status/route";
import { getDb } from "@/lib/db";
import { recorderIncidents, recorderRuns } from "@/lib/db/schema";
import { latestRecorderRun } from "@/lib/history/journal";
import { RecorderJournal } from "@/lib/recorder/journal";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { fixtureFrames, startFakeMarketChannel } from "./fakes/market-channel";
import { writeFrames } from "./fakes/tick-rows";

vi.hoisted(() => {
  process.env.RATE_LIMIT_FREE = "12";
});

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as Record<
  "M1" | "M1b" | "M2",
  { cond: string; yes: string; no: string }
>;
const recorded = [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no];
const HOUR = 3_600_000;

type Obj = Record<string, unknown>;
interface Hour {
  hour: number;
  condition: string;
  rows: number;
}
interface AssetCoverageBody {
  outcomeId: string;
  firstEvent: number | null;
  lastEvent: number | null;
  rowsByType: Record<string, number>;
  hours: Hour[];
  gaps: Array<{ start: number; end: number; reason: string }>;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let stores: TickStores;
let key: string;
let firstRunStarted = 0;

beforeAll(async () => {
  await seedCatalog([
    makeEvent({}, [
      { venueMarketId: "m1", contractAddress: ids.M1.cond, outcomes: [{ outcomeId: ids.M1.yes, label: "Yes", price: 0.6, priceChange24h: 0 }, { outcomeId: ids.M1.no, label: "No", price: 0.4, priceChange24h: 0 }] },
      { venueMarketId: "m1b", contractAddress: ids.M1b.cond, outcomes: [{ outcomeId: ids.M1b.yes, label: "Yes", price: 0.2, priceChange24h: 0 }, { outcomeId: ids.M1b.no, label: "No", price: 0.8, priceChange24h: 0 }] },
    ]),
  ]);
  stores = await getTickStores();
  await stores.writer.command({ query: "TRUNCATE TABLE polymarket_orderbook_rust" });
  key = (await makeKey("free")).key;
});

function makeRecorder(url: string, journal: RecorderJournal) {
  return new Recorder({ writer: stores.writer, wsUrl: url, assets: async () => recorded, maxAssets: 2000, pingIntervalMs: 50, minBackoffMs: 20, writerOptions: { flushIntervalMs: 50 }, journal });
}

describe("recorder incidents, heartbeat and coverage", () => {
  it("a dropped connection and a restart produce the right incidents, and degraded/missing hours", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    const db = await getDb();
    const fake = await startFakeMarketChannel();
    try {
      const journal = new RecorderJournal(db, { mode: "separate process", heartbeatMs: 50 });
      const first = makeRecorder(fake.url, journal);
      firstRunStarted = Date.now();
      await first.start();
      await until(() => first.stats.frames === fixtureFrames.length);
      fake.dropAll();
      await until(() => fake.connections() === 2 && first.stats.frames === 2 * fixtureFrames.length);
      await journal.flush();
      // The status shows the recorder running from its heartbeat, as it would from another process.
      await until(async () => Number(((await latestRecorderRun(db))?.counters as Obj | undefined)?.frames ?? 0) > 0);
      const status = await callRoute(statusRoute, { path: "/v0/status", key });
      const heartbeat = (status.body as { recorder: { heartbeat: Obj | null } }).recorder.heartbeat;
      expect(heartbeat).toMatchObject({ running: true, state: "running", mode: "separate process" });
      expect(Number((heartbeat?.counters as Obj).frames)).toBeGreaterThan(0);
      await first.stop(); // SIGTERM: a clean stop
      await new Promise((resolve) => setTimeout(resolve, 150));
      const second = makeRecorder(fake.url, new RecorderJournal(db, { mode: "separate process", heartbeatMs: 50 }));
      await second.start();
      await until(() => second.stats.frames === fixtureFrames.length);
      await second.stop();
    } finally {
      await fake.close();
    }

    const runs = await db.select().from(recorderRuns).orderBy(recorderRuns.startedAt);
    expect(runs).toHaveLength(2);
    expect(runs.every((run) => run.stoppedAt !== null)).toBe(true);
    const incidents = await db.select().from(recorderIncidents).orderBy(recorderIncidents.startedAt);
    const firstRun = incidents.filter((i) => i.runId === runs[0]?.id).map((i) => i.kind);
    // The fixture's venue times are months old, so the lag is above the threshold from the first frame on.
    expect(firstRun).toEqual(["recorder_started", "assets_added", "connection_opened", "lag", "connection_lost", "connection_opened", "recorder_stopped"]);
    expect(incidents.filter((i) => i.runId === runs[1]?.id).map((i) => i.kind)).toEqual(["recorder_started", "assets_added", "connection_opened", "lag", "recorder_stopped"]);
    const lag = incidents.find((i) => i.kind === "lag");
    expect(lag?.endedAt).not.toBeNull(); // a clean stop closes open spans
    const lost = incidents.find((i) => i.kind === "connection_lost");
    expect(lost?.assets.sort()).toEqual([...recorded].sort());
    expect(lost?.endedAt).not.toBeNull();
    expect(Number(lost?.detail.gapMs)).toBeGreaterThanOrEqual(0);
    expect((lost?.endedAt?.getTime() ?? 0) - (lost?.startedAt.getTime() ?? 0)).toBe(lost?.detail.gapMs);

    const listed = await callRoute(incidentsRoute, { path: "/v0/incidents?kind=connection_lost", key });
    expect(listed.status).toBe(200);
    const listedBody = listed.body as { data: Array<{ kind: string; durationMs: number; degrading: boolean }> };
    expect(listedBody.data).toHaveLength(1);
    expect(listedBody.data[0]).toMatchObject({ kind: "connection_lost", degrading: true });

    const since = Math.floor(firstRunStarted / HOUR) * HOUR - 3 * HOUR;
    const res = await callRoute(coverageRoute, { path: `/v0/coverage?outcomeId=${ids.M1.yes}&since=${since}`, key });
    expect(res.status).toBe(200);
    const [asset] = (res.body as { data: { assets: AssetCoverageBody[] } }).data.assets;
    // Before the first run the recorder was down: missing. The hour of the runs: a lost connection and a restart gap: degraded.
    expect(asset?.hours.map((h) => h.condition)).toEqual(["missing", "missing", "missing", "degraded"]);
    const reasons = asset?.gaps.map((g) => g.reason) ?? [];
    expect(reasons[0]).toBe("recorder_down");
    expect(reasons).toContain("connection_lost");
    expect(reasons.filter((r) => r === "recorder_down").length).toBeGreaterThanOrEqual(2); // before the first run, between the runs, after the second
    expect(asset?.rowsByType).toEqual({ book: 2, price_change: 10, last_trade_price: 1 });
    expect(asset?.firstEvent).toBe(1781351934937);
  });

  it("an asset never subscribed is missing in every hour, with no events", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    const res = await callRoute(coverageRoute, { path: `/v0/coverage?market=${ids.M1b.cond}&since=${Math.floor(firstRunStarted / HOUR) * HOUR - HOUR}`, key });
    expect(res.status).toBe(200);
    const assets = (res.body as { data: { assets: AssetCoverageBody[] } }).data.assets;
    expect(assets.map((a) => a.outcomeId).sort()).toEqual([ids.M1b.yes, ids.M1b.no].sort());
    for (const asset of assets) {
      expect(asset.hours.every((h) => h.condition === "missing")).toBe(true);
      expect(asset.firstEvent).toBeNull();
      expect(asset.rowsByType).toEqual({ book: 0, price_change: 0, last_trade_price: 0 });
      expect(asset.gaps.map((g) => g.reason)).toContain("not_subscribed");
    }
  });

  it("refuses bad parameters naming them", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    for (const [route, query, parameter] of [
      [coverageRoute, "/v0/coverage", "market"],
      [coverageRoute, `/v0/coverage?market=${ids.M1.cond}&outcomeId=${ids.M1.yes}`, "market"],
      [coverageRoute, `/v0/coverage?market=${ids.M1.cond}&since=2026-01-01T00:00:00Z&until=2026-03-01T00:00:00Z`, "since"],
      [incidentsRoute, "/v0/incidents?kind=earthquake", "kind"],
      [incidentsRoute, "/v0/incidents?since=soon", "since"],
      [manifestRoute, "/v0/archive/manifest", "date"],
      [manifestRoute, "/v0/archive/manifest?date=2026-02-30", "date"],
      [manifestRoute, "/v0/archive/manifest?date=2099-01-01", "date"],
    ] as const) {
      const bad = await callRoute(route, { path: query, key });
      expect(bad.status, query).toBe(400);
      expect((bad.body as { error: { parameter: string } }).error.parameter, query).toBe(parameter);
    }
  });
});

/** The manifest's checksum of the fixture's rows of one market, computed here from the raw frames. */
function expectedChecksums(market: string): Map<number, { rows: number; checksum: string }> {
  const lines: Array<[number, string, string, string]> = [];
  for (const line of fixtureFrames) {
    const parsed = JSON.parse(line) as Obj | Obj[];
    for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
      if (e.market !== market) continue;
      const ts = Number(e.timestamp);
      if (e.event_type === "book") {
        const side = (levels: unknown) => (levels as Array<{ price: string; size: string }>).map((l) => [l.price, l.size]);
        lines.push([ts, market, "book", JSON.stringify({ asset_id: e.asset_id, bids: side(e.bids), asks: side(e.asks), hash: e.hash, tick_size: e.tick_size })]);
      } else if (e.event_type === "price_change") {
        for (const c of e.price_changes as Obj[]) {
          lines.push([ts, market, "price_change", JSON.stringify({ asset_id: c.asset_id, price: c.price, size: c.size, side: c.side, best_bid: c.best_bid, best_ask: c.best_ask, hash: c.hash })]);
        }
      } else if (e.event_type === "last_trade_price") {
        lines.push([ts, market, "last_trade_price", JSON.stringify({ asset_id: e.asset_id, price: e.price, size: e.size, side: e.side, fee_rate_bps: e.fee_rate_bps, transaction_hash: e.transaction_hash })]);
      }
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  lines.sort((a, b) => a[0] - b[0] || cmp(a[1], b[1]) || cmp(a[2], b[2]) || cmp(a[3], b[3]));
  const out = new Map<number, { rows: number; hash: ReturnType<typeof createHash> }>();
  for (const [ts, m, type, data] of lines) {
    const hour = Math.floor(ts / HOUR) * HOUR;
    const entry = out.get(hour) ?? { rows: 0, hash: createHash("sha256") };
    entry.hash.update(`${ts}\t${m}\t${type}\t${data}\n`);
    entry.rows += 1;
    out.set(hour, entry);
  }
  return new Map([...out].map(([hour, e]) => [hour, { rows: e.rows, checksum: e.hash.digest("hex") }]));
}

describe("archive manifest", () => {
  it("per hour: rows, assets and a checksum equal to one computed from the raw frames; it changes when a row changes", async () => {
    key = (await makeKey("free")).key; // its own per-minute allowance
    await stores.writer.command({ query: "TRUNCATE TABLE polymarket_orderbook_rust" });
    await writeFrames(stores, fixtureFrames);
    await writeFrames(stores, fixtureFrames); // a replay: duplicates count once
    const get = async () => {
      const res = await callRoute(manifestRoute, { path: `/v0/archive/manifest?date=2026-06-13&market=${ids.M1.cond}`, key });
      expect(res.status).toBe(200);
      return (res.body as { data: { hours: Array<{ hour: string; rows: number; assets: number; checksum: string; condition: string }> } }).data.hours;
    };
    const hours = await get();
    expect(hours).toHaveLength(24);
    const expected = expectedChecksums(ids.M1.cond);
    expect([...expected.keys()]).toEqual([Date.UTC(2026, 5, 13, 11), Date.UTC(2026, 5, 13, 12)]);
    for (const hour of hours) {
      const want = expected.get(Date.parse(hour.hour));
      expect(hour.rows).toBe(want?.rows ?? 0);
      expect(hour.checksum).toBe(want?.checksum ?? createHash("sha256").digest("hex"));
      expect(hour.condition).toBe("missing"); // no recorder ran that day
    }
    expect(hours[11]?.assets).toBe(2);

    // One row changes: the hour's checksum changes, the others do not.
    const trade = fixtureFrames.find((line) => line.includes('"event_type":"last_trade_price"') && line.includes(ids.M1.cond)) ?? "";
    const tradeTs = Number(/"timestamp":"(\d+)"/.exec(trade)?.[1]);
    await stores.writer.command({
      query: `ALTER TABLE polymarket_orderbook_rust DELETE WHERE market = '${ids.M1.cond}' AND event_type = 'last_trade_price' AND timestamp = fromUnixTimestamp64Milli(${tradeTs}) SETTINGS mutations_sync = 2`,
    });
    await writeFrames(stores, [trade.replace(/"size":"([^"]+)"/, '"size":"1$1"')]);
    const after = await get();
    const changed = after.filter((hour, i) => hour.checksum !== hours[i]?.checksum).map((hour) => hour.hour);
    expect(changed).toEqual(["2026-06-13T12:00:00.000Z"]);
    expect(after[12]?.rows).toBe(hours[12]?.rows);
  });
});

describeKeyedRoute({ name: "GET /v0/coverage", handler: coverageRoute, request: { path: `/v0/coverage?outcomeId=${ids.M1.yes}` }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/incidents", handler: incidentsRoute, request: { path: "/v0/incidents" }, surface: "v0" });
describeKeyedRoute({ name: "GET /v0/archive/manifest", handler: manifestRoute, request: { path: `/v0/archive/manifest?date=2026-06-13&market=${ids.M1.cond}` }, surface: "v0" });
