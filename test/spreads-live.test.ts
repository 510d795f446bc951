import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as streamRoute } from "@/app/v0/pairs/[a]/[b]/spreads/stream/route";
import { getDb } from "@/lib/db";
import { livePublisher } from "@/lib/live/connection";
import { RecorderJournal } from "@/lib/recorder/journal";
import { Recorder } from "@/lib/recorder/polymarket/recorder";
import type { SpreadPoint } from "@/lib/spreads/shapes";
import { getTickStores } from "@/lib/ticks";
import { makeEvent, seedCatalog } from "./helpers/catalog";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";
import { startFakeMarketChannel, type FakeMarketChannel } from "./fakes/market-channel";

/**
 * The live spread (GET /v0/pairs/{a}/{b}/spreads/stream, the SSE face of `watchSpread`) of two
 * markets recorded from the loopback market channel, priced from the recorder's live books.
 */

const ids = JSON.parse(readFileSync(path.resolve(__dirname, "fixtures/venues/IDS.json"), "utf8")) as {
  M1: { cond: string; yes: string; no: string };
  M2: { cond: string; yes: string; no: string };
};

let fake: FakeMarketChannel;
let recorder: Recorder;
let journal: RecorderJournal;

beforeAll(async () => {
  await seedCatalog([
    makeEvent({ venue: "polymarket", category: "Economics" }, [{ venueMarketId: "live-m1", contractAddress: ids.M1.cond, outcomes: [{ outcomeId: ids.M1.yes, label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: ids.M1.no, label: "No", price: 0.5, priceChange24h: 0 }] }]),
    makeEvent({ venue: "polymarket", category: "Crypto" }, [{ venueMarketId: "live-m2", contractAddress: ids.M2.cond, outcomes: [{ outcomeId: ids.M2.yes, label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: ids.M2.no, label: "No", price: 0.5, priceChange24h: 0 }] }]),
    // On Polymarket, but no recorder follows it.
    makeEvent({ venue: "polymarket", category: "Crypto" }, [{ venueMarketId: "live-unrecorded", contractAddress: `0x${"9f".repeat(32)}`, outcomes: [{ outcomeId: "unrecorded-yes", label: "Yes", price: 0.5, priceChange24h: 0 }, { outcomeId: "unrecorded-no", label: "No", price: 0.5, priceChange24h: 0 }] }]),
  ]);
  fake = await startFakeMarketChannel();
  const live = await livePublisher();
  journal = new RecorderJournal(await getDb(), { mode: "in-process" });
  recorder = new Recorder({
    writer: (await getTickStores()).writer,
    wsUrl: fake.url,
    assets: async () => [ids.M1.yes, ids.M1.no, ids.M2.yes, ids.M2.no],
    maxAssets: 100,
    minBackoffMs: 20,
    writerOptions: { flushIntervalMs: 50 },
    journal,
    ...(live !== undefined ? { live } : {}),
  });
  await recorder.start();
  await fake.replays(1);
  await recorder.writer.flush();
  await journal.flush();
});

afterAll(async () => {
  await recorder?.stop();
  await fake?.close();
});

async function firstData(response: Response): Promise<Record<string, unknown>> {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("stream ended without data");
    buffer += decoder.decode(value, { stream: true });
    for (const block of buffer.split("\n\n").slice(0, -1)) {
      const data = block.split("\n").find((line) => line.startsWith("data: "));
      if (data === undefined) continue;
      const event = JSON.parse(data.slice(6)) as Record<string, unknown>;
      if (event.event === "data") {
        await reader.cancel();
        return event;
      }
      if (event.event === "error") throw new Error(JSON.stringify(event));
    }
  }
}

describe("GET /v0/pairs/{a}/{b}/spreads/stream", () => {
  it("streams the pair priced from the recorder's live books", async () => {
    const { key } = await makeKey("pro");
    const controller = new AbortController();
    const headers = new Headers({ authorization: `Bearer ${key}` });
    const response = await streamRoute(new Request(`http://localhost:3000/v0/pairs/live-m1/live-m2/spreads/stream?size=100`, { headers, signal: controller.signal }), { params: Promise.resolve({ a: "live-m1", b: "live-m2" }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const event = await firstData(response);
    controller.abort();
    expect(event.method).toBe("watchSpread");
    expect(event.symbol).toBe(`${ids.M1.yes}|${ids.M2.yes}`);
    const live = event.data as SpreadPoint;
    expect(live.known).toBe(true);

    // The recorder's live books, read here: the stream priced exactly those.
    const top = (id: string) => {
      const view = recorder.books.get(id)?.view(1);
      const bid = view?.bids[0];
      const ask = view?.asks[0];
      return { bid: bid?.price ?? null, bidSize: bid?.size ?? 0, ask: ask?.price ?? null, askSize: ask?.size ?? 0 };
    };
    const a = top(ids.M1.yes);
    const b = top(ids.M2.yes);
    expect(live.a).toEqual(a);
    expect(live.b).toEqual(b);
    const gross = (bid: number | null, ask: number | null) => (bid === null || ask === null ? null : Math.round((bid - ask) * 1e6) / 1e6);
    expect(live.gross).toEqual({ aToB: gross(b.bid, a.ask), bToA: gross(a.bid, b.ask) });
    expect(live.net?.aToB.fillable).toBeGreaterThan(0);
  });

  it("answers a pair a recorder does not follow with an error event naming why, then ends the stream", async () => {
    const { key } = await makeKey("pro");
    const headers = new Headers({ authorization: `Bearer ${key}` });
    const response = await streamRoute(new Request("http://localhost:3000/v0/pairs/live-m1/live-unrecorded/spreads/stream?size=100", { headers }), { params: Promise.resolve({ a: "live-m1", b: "live-unrecorded" }) });
    expect(response.status).toBe(200);
    const text = await response.text();
    const events = text
      .split("\n\n")
      .map((block) => block.split("\n").find((line) => line.startsWith("data: ")))
      .filter((line): line is string => line !== undefined)
      .map((line) => JSON.parse(line.slice(6)) as { event?: string; error?: { code: string; message: string } });
    const error = events.find((event) => event.event === "error");
    expect(error?.error?.code).toBe("NOT_RECORDED");
    expect(error?.error?.message).toMatch(/not being recorded live/);
    // The error comes before the stream's end, not a bare "no subscription left".
    expect(text.indexOf("NOT_RECORDED")).toBeLessThan(text.indexOf("event: close"));
  });

  it("answers 400 for a bad size before any stream opens", async () => {
    const { key } = await makeKey("pro");
    const bad = await callRoute(streamRoute, { path: "/v0/pairs/live-m1/live-m2/spreads/stream?size=0", key, params: { a: "live-m1", b: "live-m2" } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { parameter: string } }).error.parameter).toBe("size");
  });
});
