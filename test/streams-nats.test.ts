import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import type * as Pmxt from "pmxtjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import { StreamHub } from "@/lib/streams/hub";
import { connectNatsBus, type NatsBus } from "@/lib/live/nats-bus";
import { LivePublisher } from "@/lib/live/publisher";
import { createStreamServer, type StreamServer } from "@/lib/streams/ws-server";
import { getTickStores } from "@/lib/ticks";
import { getDb } from "@/lib/db";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { startFakeMarketChannel, type FakeMarketChannel } from "./fakes/market-channel";
import { makeKey } from "./helpers/keys";
import { StreamClient } from "./helpers/stream-client";
import { resolutionRecord } from "./helpers/resolutions";

/**
 * The scale-out topology against the real NATS server (CI starts it; BRIER_TEST_NATS_URL
 * overrides the address): a recorder publishing on its own NATS connection, and two stream
 * servers, each on its own NATS connection and HTTP port, as two web instances would be. A
 * random subject prefix keeps concurrent runs on the same NATS server apart.
 */

const natsUrl = process.env.BRIER_TEST_NATS_URL ?? "nats://127.0.0.1:4222";
const { Exchange } = createRequire(import.meta.url)("pmxtjs") as typeof Pmxt;
class Polymarket extends Exchange {
  constructor(options: ConstructorParameters<typeof Exchange>[1]) {
    super("polymarket", options);
  }
}

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as {
  M1: { cond: string; yes: string; no: string };
  M2: { cond: string; yes: string; no: string };
};
const A1 = ids.M1.yes;
const recorded = [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no];

interface Instance {
  bus: NatsBus;
  hub: StreamHub;
  streams: StreamServer;
  server: Server;
  base: string;
}

const prefix = `brier-test-${randomBytes(4).toString("hex")}.live`;
let fake: FakeMarketChannel;
let recorderBus: NatsBus;
let recorder: Recorder;
const instances: Instance[] = [];

async function startInstance(): Promise<Instance> {
  const bus = await connectNatsBus(natsUrl, { name: "brier-test-web", prefix });
  const hub = new StreamHub({ bus });
  const streams = createStreamServer({ hub: async () => hub });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", streams.upgrade);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { bus, hub, streams, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  recorderBus = await connectNatsBus(natsUrl, { name: "brier-test-recorder", prefix }).catch((error: unknown) => {
    throw new Error(`NATS is not reachable at ${natsUrl} (start nats-server, as .ci/run does): ${String(error)}`);
  });
  fake = await startFakeMarketChannel();
  const stores = await getTickStores();
  recorder = new Recorder({
    writer: stores.writer,
    wsUrl: fake.url,
    assets: async () => recorded,
    maxAssets: 2000,
    minBackoffMs: 20,
    writerOptions: { flushIntervalMs: 50 },
    live: new LivePublisher(recorderBus),
  });
  await recorder.start();
  await fake.replays(1);
  await until(() => recorder.books.get(A1)?.hasSnapshot === true);
  instances.push(await startInstance(), await startInstance());
});

afterAll(async () => {
  for (const instance of instances) {
    await instance.streams.close();
    await new Promise<void>((resolve) => instance.server.close(() => resolve()));
    await instance.hub.close();
    await instance.bus.close();
  }
  await recorder?.stop();
  await recorderBus?.close();
  await fake?.close();
});

describe("live streams across two web instances through NATS", () => {
  it("serves the recorder's current book and every update from both instances", async () => {
    const { key } = await makeKey("pro");
    const clients = instances.map((instance) => new Polymarket({ pmxtApiKey: key, baseUrl: instance.base, autoStartServer: false }));
    // The current book comes from the recorder by request/reply: neither instance has seen an update yet.
    const first = await Promise.all(clients.map((client) => client.watchOrderBook(A1)));
    for (const book of first) {
      expect(book.bids[0]?.price).toBe(0.61);
      expect(book.asks[0]?.price).toBe(0.63);
    }
    fake.broadcast(
      JSON.stringify({
        market: ids.M1.cond,
        event_type: "price_change",
        timestamp: String(Date.now()),
        price_changes: [{ asset_id: A1, price: "0.625", size: "42", side: "BUY", hash: "h", best_bid: "0.625", best_ask: "0.63" }],
      }),
    );
    for (const client of clients) {
      let book = await client.watchOrderBook(A1);
      for (let i = 0; i < 5 && book.bids[0]?.price !== 0.625; i += 1) book = await client.watchOrderBook(A1);
      expect(book.bids[0]).toEqual({ price: 0.625, size: 42 });
    }
    for (const instance of instances) expect(instance.hub.counters.booksIn).toBeGreaterThan(0);
    for (const client of clients) (client as unknown as { _wsClient?: { close(): void } | null })._wsClient?.close();
  });

  it("fans the firehose out on every instance, and one NATS subscription per instance serves all its clients", async () => {
    const { key } = await makeKey("pro");
    const clients = await Promise.all(
      [0, 0, 1, 1].map((i) => StreamClient.connect(`${instances[i]?.base.replace("http", "ws") ?? ""}/ws?apiKey=${key}`)),
    );
    for (const [n, client] of clients.entries()) {
      expect((await client.request({ id: `f${n}`, action: "subscribe", exchange: "polymarket", method: "firehose", args: [] })).event).toBe("subscribed");
    }
    fake.broadcast(
      JSON.stringify({
        market: ids.M1.cond,
        event_type: "price_change",
        timestamp: String(Date.now()),
        price_changes: [{ asset_id: A1, price: "0.6", size: "9", side: "BUY", hash: "h", best_bid: "0.625", best_ask: "0.63" }],
      }),
    );
    for (const [n, client] of clients.entries()) {
      const message = await client.next((m) => m.id === `f${n}` && m.event === "data");
      expect(message.symbol).toBe(A1);
      expect(message.data).toMatchObject({ _source: "polymarket", _symbol: A1 });
    }
    await Promise.all(clients.map((client) => client.close()));
  });

  it("delivers a resolution the recorder's sink records to the followers on every instance, one NATS subscription per instance and venue", async () => {
    const { key } = await makeKey("pro");
    const sink = new ResolutionSink(await getDb(), (await getTickStores()).writer, recorderBus);
    const clients = await Promise.all(
      [0, 0, 1].map((i) => StreamClient.connect(`${instances[i]?.base.replace("http", "ws") ?? ""}/ws?apiKey=${key}`)),
    );
    // A market by its ticker, the whole venue, the same market by its No outcome.
    const args: unknown[][] = [[["KXNATS-1"]], [], [["KXNATS-1-NO"]]];
    for (const [n, client] of clients.entries()) {
      expect((await client.request({ id: `r${n}`, action: "subscribe", exchange: "kalshi", method: "watchResolutions", args: args[n] })).event).toBe("subscribed");
    }
    const received = instances.map((instance) => instance.hub.resolutions.received);
    const at = new Date("2026-11-22T10:00:00Z");
    await sink.record([resolutionRecord({ venueMarketId: "KXNATS-1", state: "determined", winningOutcomeId: "KXNATS-1", settlementValue: 1, venueTime: at })]);
    for (const [n, client] of clients.entries()) {
      const message = await client.next((m) => m.id === `r${n}` && m.event === "resolution");
      expect(message).toMatchObject({ symbol: "KXNATS-1", seq: 1, data: { venue: "kalshi", state: "determined", winningOutcomeId: "KXNATS-1", venueTime: at.toISOString() } });
    }
    // Each instance read the change from NATS once, however many of its clients follow it.
    expect(instances.map((instance, i) => instance.hub.resolutions.received - (received[i] ?? 0))).toEqual([1, 1]);
    await Promise.all(clients.map((client) => client.close()));
  });

  it("falls back to a venue watcher when no recorder answers for an asset", async () => {
    const { key } = await makeKey("pro");
    const client = await StreamClient.connect(`${instances[0]?.base.replace("http", "ws") ?? ""}/ws?apiKey=${key}`);
    const started = Date.now();
    expect(
      (await client.request({ id: "m", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: ["999999"] })).event,
    ).toBe("subscribed");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(instances[0]?.hub.watchers.size).toBe(1);
    await client.close();
    await until(() => instances[0]?.hub.watchers.size === 0);
  });
});
