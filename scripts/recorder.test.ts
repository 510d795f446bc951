import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db";
import { currentOutcomes, outcomeKey } from "@/lib/outcomes/store";
import { gammaMarket, kalshiMarket, startFakeOutcomeVenues, type FakeOutcomeVenues } from "@/test/fakes/outcome-venues";
import { scratchRoot, seedMigratedDatabase } from "@/test/helpers/scratch";

/*
 * `npm run recorder` as a deployment runs it beside a ClickHouse server: its own process on its own
 * DATA_DIR, here with the venues' REST APIs pointed at the loopback fakes of their wire. Like the
 * server's background jobs, it sweeps both venues' closed markets at start and writes their
 * outcomes (docs/outcomes.md); SIGTERM flushes them before it exits.
 */

const dataDir = mkdtempSync(path.join(scratchRoot(), "brier-recorder-"));
seedMigratedDatabase(dataDir);
const COND = `0x${"9".repeat(64)}`;
let fake: FakeOutcomeVenues;
let child: ChildProcess | undefined;
let stderr = "";

beforeAll(async () => {
  fake = await startFakeOutcomeVenues();
  fake.gamma = [gammaMarket("9001", COND, ["90011", "90012"], { closedTime: "2026-11-02 10:00:00+00", umaResolutionStatus: "resolved", outcomePrices: '["0","1"]' })];
  fake.kalshi = [kalshiMarket("KXREC-1", { status: "finalized", result: "yes", settlement_value_dollars: "1.0000", settlement_ts: "2026-11-01T15:00:00Z" })];
});

afterAll(async () => {
  child?.kill("SIGKILL");
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; recorder stderr:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm run recorder", () => {
  it("sweeps both venues' outcomes at start, as the server does in-process, and flushes them on SIGTERM", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      RECORDER_ENABLED: "true",
      POLYMARKET_GAMMA_URL: fake.gammaUrl,
      KALSHI_API_URL: fake.kalshiUrl,
      VENUE_REDIRECT_URL: "",
      HTTP_PROXY: "",
      HTTPS_PROXY: "",
      http_proxy: "",
      https_proxy: "",
    };
    const started = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/recorder.ts"], { env, stdio: ["ignore", "ignore", "pipe"] });
    child = started;
    started.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => started.on("exit", (code) => resolve(code)));
    // The first sweep of each venue: Gamma's closed markets, Kalshi's closed, settled and historical listings.
    await until(() => fake.requests.some((r) => r.startsWith("/gamma/markets/keyset")) && fake.requests.some((r) => r.includes("/historical/markets")), "both venues' first sweep");
    // Let the sweep's pages reach the sink, then stop: the sink's records are written before the process exits.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    started.kill("SIGTERM");
    expect(await exited, stderr).toBe(0);
    expect(stderr).not.toContain('"level":"error"');

    const handle = await openDatabase({ url: process.env.DATABASE_URL, dataDir: path.join(dataDir, "pg") });
    try {
      const current = await currentOutcomes(handle.db, [
        { venue: "polymarket", venueMarketId: "9001" },
        { venue: "kalshi", venueMarketId: "KXREC-1" },
      ]);
      expect(current.get(outcomeKey("polymarket", "9001"))).toMatchObject({ state: "settled", winningOutcomeId: "90012", settlementValue: 0, source: "rest", market: COND });
      expect(current.get(outcomeKey("kalshi", "KXREC-1"))).toMatchObject({ state: "settled", winningOutcomeId: "KXREC-1", settlementValue: 1, source: "rest" });
    } finally {
      await handle.close();
    }
  }, 180_000);
});
