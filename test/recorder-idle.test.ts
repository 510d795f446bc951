import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { clearCatalog, makeEvent, seedCatalog } from "./helpers/catalog";
import { processStartedAt } from "@/lib/status/process";
import { recorderIdleReason } from "@/lib/recorder/polymarket/idle";
import { config } from "@/lib/config";

describe("why the recorder follows no asset", () => {
  beforeAll(async () => {
    await clearCatalog();
  });

  it("says nothing while it follows assets, or when it reports no count", async () => {
    expect(await recorderIdleReason(await getDb(), 4)).toBeNull();
    expect(await recorderIdleReason(await getDb(), undefined)).toBeNull();
  });

  it("names the empty catalog, then the pending refresh once Polymarket markets arrive", async () => {
    expect(await recorderIdleReason(await getDb(), 0)).toMatch(/^No catalog market to follow yet/);
    await seedCatalog([makeEvent({ venue: "polymarket" }, [{ contractAddress: `0x${"d".repeat(64)}` }])]);
    expect(await recorderIdleReason(await getDb(), 0)).toMatch(/next refresh/);
  });

  it("names RECORDER_MAX_ASSETS=0 before anything else", async () => {
    const configured = config.recorder.maxAssets;
    config.recorder.maxAssets = 0;
    try {
      expect(await recorderIdleReason(await getDb(), 0)).toMatch(/^RECORDER_MAX_ASSETS=0/);
    } finally {
      config.recorder.maxAssets = configured;
    }
  });
});

describe("process start", () => {
  it("is when the process started, before this test ran, and stable", () => {
    const first = processStartedAt();
    expect(first.getTime()).toBeLessThanOrEqual(Date.now() - process.uptime() * 1000 + 1000);
    expect(Math.abs(processStartedAt().getTime() - first.getTime())).toBeLessThanOrEqual(1000);
  });
});
