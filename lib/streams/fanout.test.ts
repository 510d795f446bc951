import { describe, expect, it } from "vitest";
import type { BookMessage } from "@/lib/live/bus";
import { BookFanout } from "./fanout";
import type { FirehoseFeed, TopicFeed } from "./feeds";
import { messageText, type OutMessage } from "./protocol";

interface Data {
  event: string;
  id: string;
  symbol: string;
  seq: number;
  data: { bids: Array<{ price: number; size: number }>; timestamp: number; _symbol?: string };
}

let seq = 0;
function book(assetId: string, price: number, epoch = "run-1"): BookMessage {
  seq += 1;
  return { venue: "polymarket", assetId, market: "m", epoch, seq, timestamp: seq, bids: [[price, 10], [price - 0.01, 5]], asks: [[price + 0.02, 7]], inSync: true };
}

function topic(symbols: string[], limit?: number): TopicFeed & { notified: number } {
  const feed = {
    kind: "topic" as const,
    venue: "polymarket",
    idJson: '"t"',
    methodJson: '"watchOrderBooks"',
    symbols,
    limit,
    written: new Map<string, number>(),
    seq: 0,
    active: true,
    notified: 0,
    notify: () => {
      feed.notified += 1;
    },
  };
  return feed;
}

function firehose(): FirehoseFeed {
  return { kind: "firehose", idJson: '"f"', methodJson: '"firehose"', venues: undefined, seq: 0, cursor: 0, counted: 0, notify: () => undefined };
}

function read(fanout: BookFanout, feed: TopicFeed | FirehoseFeed): Data[] {
  const out: OutMessage[] = [];
  fanout.collect(feed, out);
  return out.map((message) => JSON.parse(messageText(message)) as Data);
}

describe("BookFanout", () => {
  it("commits once per tick: a topic subscription gets the latest book, its seq jumping by the updates merged", () => {
    const fanout = new BookFanout(() => undefined);
    const feed = topic(["a"], 1);
    fanout.addTopic(feed);
    fanout.offer(book("a", 0.5));
    fanout.advance();
    expect(feed.notified).toBe(1);
    const first = read(fanout, feed);
    expect(first.map((m) => [m.symbol, m.seq, m.data.bids[0]?.price, m.data.bids.length])).toEqual([["a", 1, 0.5, 1]]);
    fanout.offer(book("a", 0.51));
    fanout.offer(book("a", 0.52));
    fanout.offer(book("a", 0.53));
    expect(read(fanout, feed)).toEqual([]); // not committed before the tick
    fanout.advance();
    expect(read(fanout, feed).map((m) => [m.seq, m.data.bids[0]?.price])).toEqual([[4, 0.53]]);
    expect(read(fanout, feed)).toEqual([]); // nothing new
  });

  it("drops duplicates and older books of the same run; a new run's books are taken", () => {
    const fanout = new BookFanout(() => undefined);
    const feed = topic(["a"]);
    fanout.addTopic(feed);
    const newer = book("a", 0.6);
    const older = { ...newer, seq: newer.seq - 1, bids: [[0.1, 1]] as [number, number][] };
    expect(fanout.offer(newer)).toBe(true);
    expect(fanout.offer(newer)).toBe(false); // the same update through a second bus subscription
    expect(fanout.offer(older)).toBe(false);
    expect(fanout.offer({ ...older, epoch: "run-2" })).toBe(true);
  });

  it("a firehose subscription that fell behind gets each asset's latest book once, never an older one, with the gap in its seq", () => {
    const fanout = new BookFanout(() => undefined);
    const feed = firehose();
    fanout.addFirehose(feed);
    const published: Record<string, number> = {};
    for (let tick = 0; tick < 10; tick += 1) {
      for (const asset of ["x", "y", "z"]) {
        if (asset === "z" && tick > 2) continue;
        const price = Number((0.1 + tick / 100).toFixed(2));
        fanout.offer(book(asset, price));
        published[asset] = price;
      }
      fanout.advance();
    }
    const caughtUp = read(fanout, feed);
    expect(caughtUp.map((m) => [m.data._symbol, m.data.bids[0]?.price]).sort()).toEqual(Object.entries(published).sort());
    // 23 books were offered, 3 written: the last seq is 23 and the first shows the 20 merged.
    expect(caughtUp.map((m) => m.seq)).toEqual([21, 22, 23]);
    fanout.offer(book("x", 0.9));
    fanout.advance();
    expect(read(fanout, feed).map((m) => [m.seq, m.data._symbol])).toEqual([[24, "x"]]);
  });

  it("a firehose subscription behind by more ticks than the log keeps catches up from the assets themselves", () => {
    const fanout = new BookFanout(() => undefined);
    const feed = firehose();
    fanout.addFirehose(feed);
    for (let tick = 0; tick < 200; tick += 1) {
      fanout.offer(book(tick % 2 === 0 ? "p" : "q", 0.2 + tick / 1000));
      fanout.advance();
    }
    const caughtUp = read(fanout, feed);
    expect(caughtUp.map((m) => m.data._symbol).sort()).toEqual(["p", "q"]);
    expect(caughtUp.map((m) => m.seq)).toEqual([199, 200]);
    expect(caughtUp.find((m) => m.data._symbol === "q")?.data.bids[0]?.price).toBeCloseTo(0.2 + 199 / 1000);
  });

  it("shares one serialized body among every subscriber of an update", () => {
    const fanout = new BookFanout(() => undefined);
    const feeds = [topic(["a"]), topic(["a"])];
    for (const feed of feeds) fanout.addTopic(feed);
    fanout.offer(book("a", 0.4));
    fanout.advance();
    const bodies = feeds.map((feed) => {
      const out: OutMessage[] = [];
      fanout.collect(feed, out);
      const [message] = out;
      if (message === undefined || typeof message === "string") throw new Error("expected a shared data message");
      return message.body;
    });
    expect(bodies[0]).toBe(bodies[1]);
  });
});
