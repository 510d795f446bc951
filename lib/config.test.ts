import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";

describe("parseConfig", () => {
  it("defaults to the embedded setup", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      dataDir: ".data",
      port: 3000,
      embeddedPostgres: true,
      embeddedClickhouse: true,
      rateLimits: { free: 60, pro: 1000, enterprise: 6000 },
      catalog: { venues: undefined, pollSeconds: 60 },
      recorder: { enabled: true, maxAssets: 2000, wsUrl: "wss://ws-subscriptions-clob.polymarket.com/ws/market" },
      venueTimeoutMs: 15_000,
      backgroundJobs: true,
    });
  });

  it("sends the venues' websocket channels where VENUE_REDIRECT_URL sends their HTTP calls, unless a channel's URL is set", () => {
    const offline = parseConfig({ VENUE_REDIRECT_URL: "http://127.0.0.1:9/" });
    expect(offline.recorder.wsUrl).toBe("ws://127.0.0.1:9/ws-subscriptions-clob.polymarket.com/ws/market");
    expect(offline.kalshiRecorder.wsUrl).toBe("ws://127.0.0.1:9/api.elections.kalshi.com/trade-api/ws/v2");
    const fake = parseConfig({ VENUE_REDIRECT_URL: "http://127.0.0.1:9", POLYMARKET_WS_URL: "ws://127.0.0.1:4100/channel" });
    expect(fake.recorder.wsUrl).toBe("ws://127.0.0.1:4100/channel");
    expect(fake.kalshiRecorder.wsUrl).toBe("ws://127.0.0.1:9/api.elections.kalshi.com/trade-api/ws/v2");
  });

  it("switches to servers when their URLs are set", () => {
    const config = parseConfig({
      DATABASE_URL: "postgres://u:p@db:5432/brier",
      CLICKHOUSE_URL: "http://ch:8123",
      CLICKHOUSE_DATABASE: "ticks",
    });
    expect(config.embeddedPostgres).toBe(false);
    expect(config.embeddedClickhouse).toBe(false);
    expect(config.clickhouse).toMatchObject({ url: "http://ch:8123", database: "ticks", user: "default" });
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", CLICKHOUSE_URL: " " }).embeddedPostgres).toBe(true);
  });

  it("parses lists, numbers and flags", () => {
    const config = parseConfig({
      CATALOG_VENUES: " polymarket, kalshi ,,mock ",
      RATE_LIMIT_FREE: "5",
      RECORDER_ENABLED: "false",
      BACKGROUND_JOBS: "0",
    });
    expect(config.catalog.venues).toEqual(["polymarket", "kalshi", "mock"]);
    expect(config.rateLimits.free).toBe(5);
    expect(config.recorder.enabled).toBe(false);
    expect(config.backgroundJobs).toBe(false);
  });

  it("takes RECORDER_MAX_ASSETS=0 (a recorder that follows no asset)", () => {
    expect(parseConfig({ RECORDER_MAX_ASSETS: "0" }).recorder.maxAssets).toBe(0);
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ RATE_LIMIT_PRO: "-1" }, "RATE_LIMIT_PRO"],
    [{ DATABASE_URL: "mysql://x@y/z" }, "DATABASE_URL"],
    [{ CLICKHOUSE_URL: "not a url" }, "CLICKHOUSE_URL"],
    [{ CLICKHOUSE_DATABASE: "a;drop" }, "CLICKHOUSE_DATABASE"],
    [{ RECORDER_ENABLED: "maybe" }, "RECORDER_ENABLED"],
    [{ RECORDER_MAX_ASSETS: "-1" }, "RECORDER_MAX_ASSETS"],
    [{ POLYMARKET_WS_URL: "http://x" }, "POLYMARKET_WS_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ SPREAD_DAYS_AHEAD_AFTER_SECONDS: "-1" }, "SPREAD_DAYS_AHEAD_AFTER_SECONDS"],
    [{ SPREAD_DAYS_AHEAD_AFTER_SECONDS: "99999999" }, "SPREAD_DAYS_AHEAD_AFTER_SECONDS"],
    [{ GITHUB_ID: "only-one" }, "GITHUB_ID and GITHUB_SECRET"],
  ])("rejects %o naming the variable", (env, name) => {
    expect(() => parseConfig(env)).toThrow(name);
  });
});
