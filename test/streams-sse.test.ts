import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v0/stream/route";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import { getDb } from "@/lib/db";
import { getLiveBus, livePublisher } from "@/lib/live/connection";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { getStreamHub } from "@/lib/streams/live";
import { flushStreamUsage, streamUsagePerKey } from "@/lib/streams/usage";
import { getTickStores } from "@/lib/ticks";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { startFakeMarketChannel, type FakeMarketChannel } from "./fakes/market-channel";
import { resolutionRecord } from "./helpers/resolutions";
import { readSseEvents } from "./helpers/sse";

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as {
  M1: { cond: string; yes: string; no: string };
  M2: { cond: string; yes: string; no: string };
};
const A1 = ids.M1.yes;
const B1 = ids.M2.yes;

// The auth suite needs a request that ends: the mock venue has no order-book stream, so the
// response is one error event and the end of the stream.
describeKeyedRoute({ name: "GET /v0/stream", handler: GET, request: { path: "/v0/stream?exchange=mock&outcomeIds=mock-m1-yes" }, surface: "v0" });

let fake: FakeMarketChannel;
let recorder: Recorder;

beforeAll(async () => {
  fake = await startFakeMarketChannel();
  const stores = await getTickStores();
  const live = await livePublisher();
  recorder = new Recorder({
    writer: stores.writer,
    wsUrl: fake.url,
    assets: async () => [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no],
    maxAssets: 100,
    minBackoffMs: 20,
    writerOptions: { flushIntervalMs: 50 },
    ...(live !== undefined ? { live } : {}),
  });
  await recorder.start();
  await fake.replays(1);
});

afterAll(async () => {
  await recorder?.stop();
  await fake?.close();
});

describe("GET /v0/stream (Server-Sent Events)", () => {
  it("sends each outcome's current book, then its updates, and records the key's stream minutes and messages", async () => {
    const { key, keyId, accountId } = await makeKey("pro");
    const abort = new AbortController();
    const request = new Request(`http://localhost/v0/stream?outcomeIds=${A1},${B1}`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
    const response = await GET(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const first = await readSseEvents(response, (events) => events.filter((e) => e.event === "data").length >= 2);
    expect(first[0]).toEqual({ event: "subscribed", id: "books" });
    const books = new Map(first.filter((e) => e.event === "data").map((e) => [e.symbol, e.data as { bids: { price: number }[] }]));
    expect(books.get(A1)?.bids[0]?.price).toBe(0.61);
    expect(books.get(B1)?.bids[0]?.price).toBe(0.033);
    abort.abort();
    const hub = await getStreamHub();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...hub.sessions].filter((s) => s.surface === "sse")).toHaveLength(0);
    await flushStreamUsage();
    const usage = (await streamUsagePerKey(await getDb(), accountId)).get(keyId);
    expect(usage?.messages).toBeGreaterThanOrEqual(2);
    expect(usage?.streamMinutes).toBeGreaterThan(0);
  });

  it("counts the outcomes against the plan's stream subscriptions", async () => {
    const { key } = await makeKey("free");
    const six = ["1", "2", "3", "4", "5", "6"].join(",");
    const res = await callRoute(GET, { path: `/v0/stream?outcomeIds=${six}`, key });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/SUBSCRIPTION_LIMIT/);
    expect(res.text).toMatch(/free plan allows 5/);
  });

  it("sends resolution events of the named markets, or of the whole venue, beside the books", async () => {
    const { key } = await makeKey("pro");
    const sink = new ResolutionSink(await getDb(), (await getTickStores()).writer, await getLiveBus());
    const open = async (query: string, abort: AbortController) => {
      const response = await GET(new Request(`http://localhost/v0/stream?${query}`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal }), { params: Promise.resolve({}) });
      expect(response.status).toBe(200);
      return response;
    };
    const one = new AbortController();
    const both = new AbortController();
    const market = await open("exchange=kalshi&resolutions=KXSSE-1", one);
    const mixed = await open(`outcomeIds=${A1}&resolutions=*`, both);
    const at = new Date("2026-11-21T09:00:00Z");
    await sink.record([resolutionRecord({ venueMarketId: "KXSSE-2", state: "closed", venueTime: at })]);
    await sink.record([resolutionRecord({ venueMarketId: "KXSSE-1", state: "settled", venueState: "finalized", winningOutcomeId: "KXSSE-1-NO", settlementValue: 0, venueTime: at })]);
    const cond = `0x${"cd".repeat(32)}`;
    await sink.record([resolutionRecord({ venue: "polymarket", venueMarketId: "9202", market: cond, outcomeIds: ["92021", "92022"], state: "disputed", venueTime: at })]);
    const events = await readSseEvents(market, (seen) => seen.some((e) => e.event === "resolution"));
    expect(events[0]).toEqual({ event: "subscribed", id: "resolutions" });
    expect(events.filter((e) => e.event === "resolution")).toEqual([
      {
        event: "resolution",
        id: "resolutions",
        method: "watchResolutions",
        symbol: "KXSSE-1",
        seq: 1,
        data: {
          venue: "kalshi",
          market: "KXSSE-1",
          venueMarketId: "KXSSE-1",
          outcomeIds: ["KXSSE-1", "KXSSE-1-NO"],
          state: "settled",
          venueState: "finalized",
          winningOutcomeId: "KXSSE-1-NO",
          settlementValue: 0,
          closedAt: null,
          venueTime: at.toISOString(),
          receivedAt: at.toISOString(),
          learnedBy: "push",
          resolutionSource: null,
          synthetic: false,
        },
      },
    ]);
    // outcomeIds and resolutions=* on Polymarket (the default venue): the book, then the venue's change only.
    const mixedEvents = await readSseEvents(mixed, (seen) => seen.some((e) => e.event === "resolution") && seen.some((e) => e.event === "data"));
    expect(mixedEvents.filter((e) => e.event === "subscribed").map((e) => e.id)).toEqual(["books", "resolutions"]);
    expect(mixedEvents.filter((e) => e.event === "resolution").map((e) => [e.symbol, (e.data as { state: string }).state])).toEqual([[cond, "disputed"]]);
    one.abort();
    both.abort();
  });

  it("names a bad parameter", async () => {
    const { key } = await makeKey("free");
    const missing = await callRoute(GET, { path: "/v0/stream", key });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: "invalid_parameter", parameter: "outcomeIds" } });
    const resolutions = await callRoute(GET, { path: "/v0/stream?resolutions=", key });
    expect(resolutions.status).toBe(400);
    expect(resolutions.body).toMatchObject({ error: { code: "invalid_parameter", parameter: "resolutions" } });
    const venue = await callRoute(GET, { path: "/v0/stream?outcomeIds=1&exchange=nowhere", key });
    expect(venue.status).toBe(400);
    expect(venue.body).toMatchObject({ error: { parameter: "exchange" } });
    const twice = await callRoute(GET, { path: "/v0/stream?outcomeIds=1&outcomeIds=2", key });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ error: { parameter: "outcomeIds", message: "outcomeIds was sent more than once" } });
  });
});
