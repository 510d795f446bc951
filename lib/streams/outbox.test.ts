import { describe, expect, it } from "vitest";
import { Outbox, SLOW_CONSUMER_CLOSE, TickScheduler, type Transport } from "./outbox";
import { messageText } from "./protocol";

function fakeTransport() {
  const written: string[] = [];
  const state = { buffered: 0, closed: undefined as { code: number; reason: string } | undefined };
  const transport: Transport = {
    buffered: () => state.buffered,
    write: (messages) => written.push(...messages.map(messageText)),
    close: (code, reason) => {
      state.closed = { code, reason };
    },
  };
  return { transport, written, state };
}

const limits = { bufferBytes: 1000, maxPending: 5, slowConsumerMs: 100 };

describe("Outbox", () => {
  it("writes everything, in order, while the client keeps up", () => {
    const { transport, written } = fakeTransport();
    const outbox = new Outbox(transport, limits, () => undefined);
    outbox.push("ack");
    outbox.pushBook("s\u0000a", "book-a-1");
    outbox.flush(0);
    outbox.pushBook("s\u0000a", "book-a-2");
    outbox.flush(1);
    expect(written).toEqual(["ack", "book-a-1", "book-a-2"]);
    expect(outbox.coalesced).toBe(0);
  });

  it("coalesces books per slot while the transport is full, keeps trades, and never writes an older book after a newer one", () => {
    const { transport, written, state } = fakeTransport();
    const outbox = new Outbox(transport, { ...limits, maxPending: 100 }, () => undefined);
    state.buffered = 5000;
    outbox.pushBook("a", "a1");
    outbox.pushBook("b", "b1");
    outbox.push("trade1");
    outbox.pushBook("a", "a2");
    outbox.pushBook("a", "a3");
    expect(outbox.flush(0)).toBe(true);
    expect(written).toEqual([]);
    state.buffered = 0;
    expect(outbox.flush(50)).toBe(false);
    expect(written).toEqual(["trade1", "a3", "b1"]);
    expect(outbox.coalesced).toBe(2);
  });

  it("closes a consumer that stays behind past the time limit, with a reason", () => {
    const { transport, state } = fakeTransport();
    const outbox = new Outbox(transport, limits, () => undefined);
    state.buffered = 5000;
    outbox.pushBook("a", "a1");
    expect(outbox.flush(0)).toBe(true);
    expect(outbox.flush(100)).toBe(true);
    expect(outbox.flush(101)).toBe(false);
    expect(state.closed).toEqual({ code: SLOW_CONSUMER_CLOSE, reason: "slow consumer: more than 100 ms behind" });
    expect(outbox.closed).toBe(true);
  });

  it("closes a consumer with more messages waiting than allowed (the queue never grows without bound)", () => {
    const { transport, state } = fakeTransport();
    const outbox = new Outbox(transport, limits, () => undefined);
    state.buffered = 5000;
    for (let i = 0; i < 5; i += 1) outbox.push(`trade${i}`);
    expect(state.closed).toBeUndefined();
    outbox.push("trade5");
    expect(state.closed?.reason).toBe("slow consumer: more than 5 messages waiting");
    expect(outbox.pending).toBe(0);
  });

  it("pulls live books only when the transport has room, after the queued messages", () => {
    const { transport, written, state } = fakeTransport();
    let pulls = 0;
    const outbox = new Outbox(transport, limits, () => undefined, (into) => {
      pulls += 1;
      into.push(`live-${pulls}`);
    });
    outbox.push("ack");
    state.buffered = 5000;
    expect(outbox.flush(0)).toBe(true);
    expect(pulls).toBe(0);
    state.buffered = 0;
    expect(outbox.flush(10)).toBe(false);
    expect(written).toEqual(["ack", "live-1"]);
  });
});

describe("TickScheduler", () => {
  it("writes each dirty outbox once per tick, with everything due since its last write", async () => {
    const writes: string[][] = [];
    const transport: Transport = { buffered: () => 0, write: (messages) => writes.push(messages.map(messageText)), close: () => undefined };
    let ticks = 0;
    const scheduler = new TickScheduler(20, () => {
      ticks += 1;
    });
    const outbox = new Outbox(transport, limits, scheduler.mark);
    outbox.push("a");
    outbox.push("b");
    outbox.pushBook("s", "book-1");
    outbox.pushBook("s", "book-2");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toEqual([["a", "b", "book-2"]]);
    expect(ticks).toBe(1); // and no tick runs while nothing is due
  });
});
