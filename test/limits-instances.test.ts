import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { KeyCap } from "@/lib/limits/cap";
import { PgKeyLimits } from "@/lib/limits/key-limits";
import { FairScheduler } from "@/lib/sql/scheduler";
import { InProcessBus } from "@/lib/live/bus";
import { StreamHub, type HubLimits } from "@/lib/streams/hub";
import { createStreamServer, type StreamServer } from "@/lib/streams/ws-server";
import { makeKey } from "./helpers/keys";
import { StreamClient } from "./helpers/stream-client";

/**
 * Two web instances in one process, each with its own hub, its own /ws server and its own lease
 * holder, counting per-key limits against one database (PostgreSQL in the PostgreSQL run, PGlite
 * otherwise): a key cannot exceed its plan by spreading over instances, both answer the same
 * error, and a killed instance's leases stop counting once their time to live passes.
 */

const TTL_MS = 1_000;
const limits: HubLimits = {
  subscriptions: { free: 5, pro: 100, enterprise: 1000 },
  connectionsPerKey: 3,
  bufferBytes: 256 * 1024,
  maxPending: 10_000,
  slowConsumerMs: 5_000,
  tickMs: 5,
};

interface Instance {
  keyLimits: PgKeyLimits;
  hub: StreamHub;
  streams: StreamServer;
  server: Server;
  url: string;
}

const instances: Instance[] = [];

async function startInstance(): Promise<Instance> {
  const bus = new InProcessBus();
  // Every asset is "recorded" (no book yet): subscriptions stay on the live path, no venue is called.
  bus.serveSnapshots("polymarket", () => ({ recorded: true, book: null }));
  const keyLimits = new PgKeyLimits(await getDb(), { ttlMs: TTL_MS });
  const hub = new StreamHub({ bus, limits, keyLimits });
  const streams = createStreamServer({ hub: async () => hub });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", streams.upgrade);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { keyLimits, hub, streams, server, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws` };
}

async function stop(instance: Instance): Promise<void> {
  await instance.streams.close();
  await new Promise<void>((resolve) => instance.server.close(() => resolve()));
  await instance.hub.close();
}

function refusal(error: unknown): { status: number; body: string } {
  return error as { status: number; body: string };
}

beforeAll(async () => {
  instances.push(await startInstance(), await startInstance());
});

afterAll(async () => {
  for (const instance of instances) {
    await stop(instance);
    await instance.keyLimits.close();
  }
});

describe("per-key limits across two web instances", () => {
  it("a free key gets 5 subscriptions in all, spread over both instances, and the same error from each", async () => {
    const [a, b] = instances as [Instance, Instance];
    const { key } = await makeKey("free");
    const clients = [await StreamClient.connect(`${a.url}?apiKey=${key}`), await StreamClient.connect(`${b.url}?apiKey=${key}`)];
    const answers = [];
    for (let i = 0; i < 8; i += 1) {
      const client = clients[i % 2] as StreamClient;
      answers.push(await client.request({ id: `s${i}`, action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [`asset-${i}`] }));
    }
    expect(answers.filter((answer) => answer.event === "subscribed")).toHaveLength(5);
    const refused = answers.filter((answer) => answer.event === "error");
    expect(refused).toHaveLength(3);
    const messages = new Set(refused.map((answer) => `${answer.error?.code}: ${answer.error?.message}`));
    // Refused on both instances, with one text: the count is the key's, not the instance's.
    expect(new Set(refused.map((answer) => Number(String(answer.id).slice(1)) % 2))).toEqual(new Set([0, 1]));
    expect([...messages]).toEqual([
      "SUBSCRIPTION_LIMIT: The free plan allows 5 concurrent stream subscriptions per key; this key holds 5 and this subscription needs 1.",
    ]);
    // Unsubscribing on one instance frees a subscription on the other.
    const first = clients[0] as StreamClient;
    expect((await first.request({ id: "u", action: "unsubscribe", exchange: "polymarket", method: "unwatchOrderBook", args: ["asset-0"] })).event).toBe("subscribed");
    const second = clients[1] as StreamClient;
    expect((await second.request({ id: "again", action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: ["asset-9"] })).event).toBe("subscribed");
    await Promise.all(clients.map((client) => client.close()));
  });

  it("a key cannot open more connections than its cap by spreading them over instances", async () => {
    const [a, b] = instances as [Instance, Instance];
    const { key } = await makeKey("pro");
    const open = [
      await StreamClient.connect(`${a.url}?apiKey=${key}`),
      await StreamClient.connect(`${b.url}?apiKey=${key}`),
      await StreamClient.connect(`${a.url}?apiKey=${key}`),
    ];
    const refusedA = refusal(await StreamClient.connect(`${a.url}?apiKey=${key}`).catch((error: unknown) => error));
    const refusedB = refusal(await StreamClient.connect(`${b.url}?apiKey=${key}`).catch((error: unknown) => error));
    expect(refusedA.status).toBe(429);
    expect(refusedB.status).toBe(429);
    const errorOf = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message;
    expect(errorOf(refusedA.body)).toBe("At most 3 stream connections may be open per key; close one first.");
    expect(errorOf(refusedB.body)).toBe(errorOf(refusedA.body));
    await open[0]?.close();
    // The connection closed on A is free on B once A has given it back.
    const deadline = Date.now() + 5_000;
    let again: StreamClient | undefined;
    while (again === undefined && Date.now() < deadline) {
      again = await StreamClient.connect(`${b.url}?apiKey=${key}`).catch(() => undefined);
      if (again === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(again).toBeDefined();
    await Promise.all([again?.close(), open[1]?.close(), open[2]?.close()]);
  });

  it("a killed instance's connections and subscriptions stop counting once their leases expire", async () => {
    const killed = await startInstance();
    const survivor = instances[0] as Instance;
    const { key, keyId, accountId } = await makeKey("free");
    const held = await Promise.all([1, 2, 3].map(() => StreamClient.connect(`${killed.url}?apiKey=${key}`)));
    for (const [i, client] of held.entries()) {
      const ids = i === 0 ? ["k1", "k2", "k3"] : i === 1 ? ["k4", "k5"] : [];
      for (const id of ids) expect((await client.request({ id, action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [id] })).event).toBe("subscribed");
    }
    expect(refusal(await StreamClient.connect(`${survivor.url}?apiKey=${key}`).catch((error: unknown) => error)).status).toBe(429);
    // kill -9: the instance stops renewing and gives nothing back; its sockets just die.
    killed.keyLimits.abandon();
    await stop(killed);
    const diedAt = Date.now();
    expect(refusal(await StreamClient.connect(`${survivor.url}?apiKey=${key}`).catch((error: unknown) => error)).status).toBe(429);
    let client: StreamClient | undefined;
    while (client === undefined && Date.now() - diedAt < TTL_MS * 4) {
      client = await StreamClient.connect(`${survivor.url}?apiKey=${key}`).catch(() => undefined);
      if (client === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(client).toBeDefined();
    if (client === undefined) return;
    // Leases taken after the instance's last renewal live a little longer: all gone within two TTLs.
    const principal = { accountId, keyId, plan: "free" as const };
    while ((await survivor.hub.accounting.subscriptionsHeld(principal)) > 0 && Date.now() - diedAt < TTL_MS * 4) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - diedAt).toBeLessThanOrEqual(TTL_MS * 2 + 500);
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await client.request({ id: `n${i}`, action: "subscribe", exchange: "polymarket", method: "watchOrderBook", args: [`n${i}`] }));
    expect(answers.map((answer) => answer.event), JSON.stringify(answers)).toEqual(["subscribed", "subscribed", "subscribed", "subscribed", "subscribed", "error"]);
    await client.close();
  });

  it("SQL: a key's queries running or waiting are counted across instances", async () => {
    const [a, b] = instances as [Instance, Instance];
    const options = { slots: 2, reservedSlots: 0, perKey: 2, maxWaitMs: 2_000, maxQueued: 64, windowMs: 10_000, heavyMs: 1_000, taskBudgetMs: 5_000 };
    const schedulers = [new FairScheduler(["a1", "a2"], { ...options, keyLimits: a.keyLimits }), new FairScheduler(["b1", "b2"], { ...options, keyLimits: b.keyLimits })];
    const finish: Array<() => void> = [];
    const hold = (scheduler: FairScheduler<string>, key: string) =>
      scheduler.run(key, undefined, () => new Promise<string>((resolve) => finish.push(() => resolve("done"))));
    const [sa, sb] = schedulers as [FairScheduler<string>, FairScheduler<string>];
    const running = [hold(sa, "key-1"), hold(sb, "key-1")];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await hold(sa, "key-1").catch((error: unknown) => error);
    const fourth = await hold(sb, "key-1").catch((error: unknown) => error);
    for (const refused of [third, fourth]) {
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe("rate_limited");
      expect((refused as AppError).message).toBe("At most 2 SQL queries may run or wait at once per key; retry when one finishes.");
    }
    // Another key is not affected.
    const other = hold(sb, "key-2");
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const done of finish) done();
    await Promise.all([...running, other]);
    // Both given back: the key may run two again.
    const again = [hold(sb, "key-1"), hold(sa, "key-1")];
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const done of finish.splice(0)) done();
    await expect(Promise.all(again)).resolves.toEqual(["done", "done"]);
  });

  it("venue calls in flight: the pass-through's cap per key holds across instances", async () => {
    const [a, b] = instances as [Instance, Instance];
    const refuse = (cap: number) => new AppError("rate_limited", `At most ${cap} venue calls may be in flight per API key; retry when one finishes.`, { retryAfter: 1 });
    const caps = [new KeyCap("venue-calls", 2, refuse, async () => a.keyLimits), new KeyCap("venue-calls", 2, refuse, async () => b.keyLimits)] as const;
    const owner = `key-${Date.now()}`;
    const first = await caps[0].acquire(owner);
    await caps[1].acquire(owner);
    await expect(caps[0].acquire(owner)).rejects.toMatchObject({ code: "rate_limited" });
    await expect(caps[1].acquire(owner)).rejects.toMatchObject({ code: "rate_limited" });
    first();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(caps[1].acquire(owner)).resolves.toBeTypeOf("function");
  });
});
