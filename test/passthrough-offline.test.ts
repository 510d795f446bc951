import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/[exchange]/[method]/route";
import { getDb } from "@/lib/db";
import { ingestRuns } from "@/lib/db/schema";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * A public read that pmxt-core sends to Kalshi only with credentials (its order book): without a
 * Kalshi key it used to answer 401 "Trading operations require authentication", on a machine that
 * was simply offline. It answers 503, naming the venue and the reason, never an authentication error.
 */
describe("offline venue reads", () => {
  it("answer 503 naming the venue and why, never a 401", async () => {
    const { key } = await makeKey("enterprise");
    const read = () => callRoute(POST, { path: "/api/kalshi/fetchOrderBook", key, params: { exchange: "kalshi", method: "fetchOrderBook" }, body: { args: ["KXTEST-26DEC31"] } });

    const noPoll = await read();
    expect(noPoll.status, noPoll.text).toBe(503);
    const unavailable = noPoll.body as { success: boolean; error: { code: string; message: string; exchange: string } };
    expect(unavailable.success).toBe(false);
    expect(unavailable.error.code).toBe("EXCHANGE_NOT_AVAILABLE");
    expect(unavailable.error.message).toMatch(/^kalshi answers fetchOrderBook to this server only with a kalshi API key/);

    // The venue's last catalog poll on this server failed for want of network: that is the reason given.
    await (await getDb()).insert(ingestRuns).values({ venue: "kalshi", trigger: "test", outcome: "failed", finishedAt: new Date(), error: "ExchangeNotAvailable: Exchange unreachable: getaddrinfo ENOTFOUND api.elections.kalshi.com" });
    const offline = await read();
    expect(offline.status, offline.text).toBe(503);
    const body = offline.body as { error: { code: string; message: string } };
    expect(body.error.code).toBe("NETWORK_ERROR");
    expect(body.error.message).toContain("kalshi is unreachable from this server");
    expect(body.error.message).toContain("ENOTFOUND");
    expect(offline.text).not.toMatch(/authentication/i);
  });
});
