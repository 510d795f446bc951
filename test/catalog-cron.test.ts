import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.CRON_SECRET = "cron-test-secret-0123456789";
  process.env.CATALOG_VENUES = "mock";
  process.env.CATALOG_POLL_SECONDS = "1";
});

const { GET: cron } = await import("@/app/api/cron/ingest/route");
const { GET: status } = await import("@/app/v0/status/route");
const { startCatalogSchedule } = await import("@/lib/jobs/catalog-schedule");
const { getDb } = await import("@/lib/db");
const { ingestRuns, markets } = await import("@/lib/db/schema");
const { makeKey } = await import("./helpers/keys");
const { callRoute } = await import("./helpers/routes");

describe("GET /api/cron/ingest", () => {
  it.each([
    ["no header", undefined],
    ["a wrong secret", "Bearer wrong-secret"],
    ["the secret without Bearer", "cron-test-secret-0123456789"],
    ["a longer secret", "Bearer cron-test-secret-0123456789x"],
  ])("refuses %s with 401 and runs nothing", async (_label, authorization) => {
    const res = await callRoute(cron, {
      path: "/api/cron/ingest",
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(res.status).toBe(401);
    expect(await (await getDb()).select().from(ingestRuns)).toHaveLength(0);
  });

  it("refuses a venue that is not a catalog venue", async () => {
    const res = await callRoute(cron, {
      path: "/api/cron/ingest?venue=polymarket",
      headers: { authorization: "Bearer cron-test-secret-0123456789" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter: "venue" } });
  });

  it("refuses a parameter sent twice or unknown, and names it", async () => {
    for (const [query, parameter, message] of [
      ["venue=mock&venue=mock", "venue", /more than once/],
      ["venues=mock", "venues", /not a parameter/],
      ["venue=,", "venue", /at least one/],
    ] as const) {
      const res = await callRoute(cron, { path: `/api/cron/ingest?${query}`, headers: { authorization: "Bearer cron-test-secret-0123456789" } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: "invalid_parameter", parameter } });
      expect((res.body as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(await (await getDb()).select().from(ingestRuns)).toHaveLength(0);
  });

  it("polls the catalog venues with the secret and reports each run; /v0/status shows it", async () => {
    const res = await callRoute(cron, {
      path: "/api/cron/ingest",
      headers: { authorization: "Bearer cron-test-secret-0123456789" },
    });
    expect(res.status).toBe(200);
    const body = res.body as { runs: Array<{ venue: string; outcome: string; trigger: string; marketsSeen: number }> };
    expect(body.runs).toHaveLength(1);
    expect(body.runs[0]).toMatchObject({ venue: "mock", outcome: "succeeded", trigger: "cron" });
    const db = await getDb();
    const stored = await db.select({ id: markets.id }).from(markets).where(eq(markets.venue, "mock"));
    expect(stored.length).toBe(body.runs[0]?.marketsSeen);

    const { key } = await makeKey("free");
    const s = await callRoute(status, { path: "/v0/status", key });
    expect(s.status).toBe(200);
    const catalog = (s.body as { catalog: { venues: Array<Record<string, unknown>> } }).catalog;
    const mock = catalog.venues.find((v) => v.venue === "mock");
    expect(mock).toMatchObject({
      lastRun: { outcome: "succeeded", trigger: "cron", error: null, marketsSeen: stored.length },
      markets: { total: stored.length, open: expect.any(Number) },
    });
    expect(mock?.dataAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(mock?.dataAgeSeconds).toBeLessThan(60);
  });
});

describe("in-process schedule", () => {
  it("polls at once, then again after CATALOG_POLL_SECONDS, once per process", async () => {
    const db = await getDb();
    const schedule = startCatalogSchedule();
    expect(startCatalogSchedule()).toBe(schedule);
    try {
      await vi.waitFor(
        async () => {
          const runs = await db.select().from(ingestRuns).where(eq(ingestRuns.trigger, "schedule"));
          expect(runs.filter((r) => r.outcome === "succeeded").length).toBeGreaterThanOrEqual(2);
        },
        { timeout: 15_000, interval: 200 },
      );
    } finally {
      schedule.stop();
      // A poll that started before the stop ends with its follow-ups (matching) before the file's stores close.
      await schedule.idle();
    }
    const runs = await db.select().from(ingestRuns).where(eq(ingestRuns.trigger, "schedule"));
    // Polls of the venue never overlap: each started after the previous one finished.
    const sorted = runs.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
    for (let i = 1; i < sorted.length; i += 1) {
      const previous = sorted[i - 1]?.finishedAt;
      if (previous) expect(sorted[i]?.startedAt.getTime()).toBeGreaterThanOrEqual(previous.getTime());
    }
  });
});
