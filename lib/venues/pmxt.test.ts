import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as pmxt from "pmxt-core";
import * as pmxtErrors from "pmxt-core/dist/errors";
import { afterAll, describe, expect, it } from "vitest";
import { buildableExchanges, createExchange } from "./factory";

const root = path.resolve(__dirname, "..", "..");
const dir = mkdtempSync(path.join(tmpdir(), "brier-pmxt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The class pmxt-core's root module exports for each key the factory builds.
const rootClass: Record<string, unknown> = {
  polymarket: pmxt.PolymarketExchange,
  limitless: pmxt.LimitlessExchange,
  kalshi: pmxt.KalshiExchange,
  "kalshi-demo": pmxt.KalshiDemoExchange,
  probable: pmxt.ProbableExchange,
  baozi: pmxt.BaoziExchange,
  myriad: pmxt.MyriadExchange,
  opinion: pmxt.OpinionExchange,
  metaculus: pmxt.MetaculusExchange,
  smarkets: pmxt.SmarketsExchange,
  polymarket_us: pmxt.PolymarketUSExchange,
  hyperliquid: pmxt.HyperliquidExchange,
  "gemini-titan": pmxt.GeminiTitanExchange,
  mock: pmxt.MockExchange,
  router: pmxt.Router,
};

/** Runs `body` in a fresh process (tsx, as the scripts run) and returns what it printed as JSON. */
async function inFreshProcess(body: string): Promise<unknown> {
  const file = path.join(dir, `probe-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    file,
    `import { createRequire } from "node:module";
const cache = createRequire(${JSON.stringify(path.join(root, "package.json"))}).cache;
const loaded = () => Object.keys(cache).filter((f) => f.includes("/node_modules/pmxt-core/dist/")).map((f) => f.replace(/.*\\/node_modules\\/pmxt-core\\/dist\\//, ""));
const factory = await import(${JSON.stringify(path.join(root, "lib", "venues", "factory.ts"))});
${body}`,
  );
  const { stdout } = await promisify(execFile)(path.join(root, "node_modules", ".bin", "tsx"), ["--conditions=react-server", file], { cwd: root });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "null");
}

describe("pmxt-core's venues, each loaded at its first use", () => {
  it("builds every key as the very class pmxt-core's root exports, so instanceof and its error classes hold", () => {
    expect([...buildableExchanges].sort()).toEqual(Object.keys(rootClass).sort());
    for (const key of buildableExchanges) {
      const exchange = createExchange(key, { redirectUrl: "http://127.0.0.1:9" });
      expect(exchange).toBeInstanceOf(rootClass[key] as new () => unknown);
      expect(exchange).toBeInstanceOf(pmxt.PredictionMarketExchange);
    }
    expect(pmxtErrors.NetworkError).toBe(pmxt.NetworkError);
    expect(pmxtErrors.BaseError).toBe(pmxt.BaseError);
  });

  it("loads no venue on import and only the venue asked for after", async () => {
    const seen = await inFreshProcess(`
const onImport = loaded();
factory.createExchange("mock");
const afterMock = loaded();
factory.createExchange("kalshi");
const afterKalshi = loaded();
console.log(JSON.stringify({ onImport, afterMock, afterKalshi }));`);
    const { onImport, afterMock, afterKalshi } = seen as Record<"onImport" | "afterMock" | "afterKalshi", string[]>;
    expect(onImport).toEqual([]);
    expect(afterMock).toContain("exchanges/mock/index.js");
    expect(afterKalshi).toContain("exchanges/kalshi/index.js");
    for (const files of [afterMock, afterKalshi]) {
      expect(files).not.toContain("index.js");
      expect(files.some((file) => file.startsWith("exchanges/polymarket/"))).toBe(false);
    }
    expect(afterMock.some((file) => file.startsWith("exchanges/kalshi/"))).toBe(false);
  });
});
