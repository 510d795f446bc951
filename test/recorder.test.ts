import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { fixtureFrames, startFakeMarketChannel, type FakeMarketChannel } from "./fakes/market-channel";

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as {
  M1: { cond: string; yes: string; no: string };
  M2: { cond: string; yes: string; no: string };
};
const assets = [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no];

type Obj = Record<string, unknown>;
interface ExpectedRow {
  ts: number;
  market: string;
  event_type: string;
  data: Obj;
}

/** The rows the fixture must produce, derived here from the raw frames without the recorder's code. */
function expectedRows(): ExpectedRow[] {
  const rows: ExpectedRow[] = [];
  for (const line of fixtureFrames) {
    const parsed = JSON.parse(line) as Obj | Obj[];
    for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
      const base = { ts: Number(e.timestamp), market: String(e.market) };
      if (e.event_type === "book") {
        const side = (levels: unknown) => (levels as Array<{ price: string; size: string }>).map((l) => [l.price, l.size]);
        rows.push({ ...base, event_type: "book", data: { asset_id: e.asset_id, bids: side(e.bids), asks: side(e.asks), hash: e.hash, tick_size: e.tick_size } });
      } else if (e.event_type === "price_change") {
        for (const c of e.price_changes as Obj[]) {
          rows.push({ ...base, event_type: "price_change", data: { asset_id: c.asset_id, price: c.price, size: c.size, side: c.side, best_bid: c.best_bid, best_ask: c.best_ask, hash: c.hash } });
        }
      } else if (e.event_type === "last_trade_price") {
        rows.push({ ...base, event_type: "last_trade_price", data: { asset_id: e.asset_id, price: e.price, size: e.size, side: e.side, fee_rate_bps: e.fee_rate_bps, transaction_hash: e.transaction_hash } });
      }
    }
  }
  return rows;
}

const canonical = (row: ExpectedRow) => JSON.stringify([row.ts, row.market, row.event_type, row.data]);

async function storedRows(stores: TickStores): Promise<ExpectedRow[]> {
  const result = await stores.writer.query({
    query: "SELECT toUnixTimestamp64Milli(timestamp) AS ts, market, event_type, data FROM polymarket_orderbook_rust ORDER BY timestamp, data",
    format: "JSONEachRow",
  });
  const rows = await result.json<{ ts: string | number; market: string; event_type: string; data: string }>();
  return rows.map((r) => ({ ts: Number(r.ts), market: r.market, event_type: r.event_type, data: JSON.parse(r.data) as Obj }));
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function makeRecorder(stores: TickStores, fake: FakeMarketChannel, source: () => Promise<string[]> = async () => assets, extra = {}) {
  return new Recorder({
    writer: stores.writer,
    wsUrl: fake.url,
    assets: source,
    maxAssets: 2000,
    pingIntervalMs: 50,
    minBackoffMs: 20,
    writerOptions: { flushIntervalMs: 50 },
    ...extra,
  });
}

let stores: TickStores;
let fake: FakeMarketChannel;
const expected = expectedRows();

beforeAll(async () => {
  stores = await getTickStores();
});

beforeEach(async () => {
  await stores.writer.command({ query: "TRUNCATE TABLE polymarket_orderbook_rust" });
  fake = await startFakeMarketChannel();
  return () => fake.close();
});

describe("recorder against the fake market channel", () => {
  it("stores exactly the expected rows per event type, with exact normalized values", async () => {
    expect(expected.filter((r) => r.event_type === "book")).toHaveLength(10);
    expect(expected.filter((r) => r.event_type === "price_change")).toHaveLength(36);
    expect(expected.filter((r) => r.event_type === "last_trade_price")).toHaveLength(5);

    const recorder = makeRecorder(stores, fake);
    await recorder.start();
    await until(() => recorder.stats.frames === fixtureFrames.length);
    await until(() => fake.received.includes("PING"));
    await recorder.stop();

    const subscription = JSON.parse(fake.received.find((m) => m.startsWith("{")) ?? "{}") as Obj;
    expect(subscription).toEqual({ assets_ids: assets, type: "market", custom_feature_enabled: true });

    const stored = await storedRows(stores);
    expect(stored).toHaveLength(51);
    expect(stored.map(canonical).sort()).toEqual(expected.map(canonical).sort());
    // The first book of the snapshot, level order as sent: best bid and best ask are the last entries.
    const book = stored.find((r) => r.event_type === "book" && r.ts === 1781351934937);
    expect(book?.data).toEqual({
      asset_id: ids.M1.yes,
      bids: [["0.55", "1200"], ["0.58", "850.5"], ["0.59", "2400"], ["0.6", "310.42"], ["0.61", "1520"]],
      asks: [["0.67", "900"], ["0.66", "2210"], ["0.64", "640.18"], ["0.63", "1875"], ["0.62", "455"]],
      hash: "c7ea14df0c05f41226bcfae739cf75d7840bd3d7",
      tick_size: "0.01",
    });
    const status = recorder.status();
    expect(status.frames).toBe(31);
    expect(status.rowsWritten).toBe(51);
    expect(status.ignoredEvents).toEqual({ tick_size_change: 2 });
    expect(status.malformedFrames).toBe(0);
    expect(status.lastFrameAt).not.toBeNull();
    expect(status.lagMs).toBeGreaterThan(0);
  });

  it("reconnects, resubscribes, and does not store the replay twice", async () => {
    const recorder = makeRecorder(stores, fake);
    await recorder.start();
    await until(() => recorder.stats.frames === 31);
    await recorder.writer.flush();
    fake.dropAll();
    await until(() => fake.connections() === 2 && recorder.stats.frames === 62);
    await recorder.writer.flush();
    const subscriptions = fake.received.filter((m) => m.includes('"type":"market"'));
    expect(subscriptions).toHaveLength(2);
    expect(subscriptions[0]).toBe(subscriptions[1]);
    expect(recorder.stats.reconnects).toBe(1);
    expect(recorder.stats.duplicatesDropped).toBe(51);
    await recorder.stop();
    expect(await storedRows(stores)).toHaveLength(51);
  });

  it("a restart mid-stream does not duplicate stored rows (dedup seeded from the table)", async () => {
    fake.setReplayLimit(15);
    const first = makeRecorder(stores, fake, async () => assets, { minBackoffMs: 60_000 });
    await first.start();
    await fake.replays(1);
    await until(() => first.stats.frames === 15);
    await first.stop(); // SIGTERM path: flushes what it buffered
    const partial = await storedRows(stores);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(51);

    fake.setReplayLimit(undefined);
    const second = makeRecorder(stores, fake);
    await second.start();
    await until(() => second.stats.frames === 31);
    await second.stop();
    expect(second.stats.duplicatesDropped).toBe(partial.length);
    const stored = await storedRows(stores);
    expect(stored.map(canonical).sort()).toEqual(expected.map(canonical).sort());
  });

  it("counts and logs malformed frames without dying", async () => {
    const recorder = makeRecorder(stores, fake);
    await recorder.start();
    await until(() => recorder.stats.frames === 31);
    fake.broadcast("{not json");
    fake.broadcast(JSON.stringify([{ event_type: "book", market: ids.M1.cond }, { event_type: "bogus_type", market: "x", timestamp: "1" }]));
    fake.broadcast(fixtureFrames[0] ?? "");
    await until(() => recorder.stats.frames === 34);
    await recorder.stop();
    expect(recorder.stats.malformedFrames).toBe(2);
    expect(recorder.stats.ignoredEvents).toEqual({ tick_size_change: 2, bogus_type: 1 });
    expect(await storedRows(stores)).toHaveLength(51);
  });

  it("shards assets over connections and follows the asset source", async () => {
    let current = assets;
    const recorder = makeRecorder(stores, fake, async () => current, { assetsPerConnection: 2 });
    await recorder.start();
    await until(() => fake.openSockets() === 2 && recorder.connections.every((c) => c.open));
    expect(recorder.status().connections).toEqual({ open: 2, total: 2 });
    expect(recorder.subscribedAssets).toBe(4);
    current = [ids.M1.yes, ids.M2.yes, "111"];
    await recorder.syncAssets();
    await until(() => fake.received.some((m) => m.includes('"operation":"unsubscribe"')));
    await until(() => fake.received.some((m) => m.includes('"operation":"subscribe"')));
    const ops = fake.received.filter((m) => m.includes('"operation"')).map((m) => JSON.parse(m) as Obj);
    expect(ops).toContainEqual({ operation: "unsubscribe", assets_ids: [ids.M1.no] });
    expect(ops).toContainEqual({ operation: "unsubscribe", assets_ids: [ids.M2.no] });
    expect(ops).toContainEqual({ operation: "subscribe", assets_ids: ["111"], custom_feature_enabled: true });
    expect(recorder.subscribedAssets).toBe(3);
    await recorder.stop();
  });
});
