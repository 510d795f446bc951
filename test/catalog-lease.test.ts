import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as status } from "@/app/v0/status/route";
import { ingestVenues, type IngestOptions } from "@/lib/catalog/ingest";
import { acquireVenueLease, LEASE_HEARTBEAT_MS, LEASE_TTL_MS } from "@/lib/catalog/lease";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { ingestLeases, ingestRuns } from "@/lib/db/schema";
import { createExchange } from "@/lib/venues/factory";
import { createFakeVenues } from "./fakes/venue-server";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * A `kill -9` mid-poll leaves the venue's lease row and a `running` run row
 * behind. Simulated here by writing exactly those rows under another process's holder id, on
 * whichever store this run uses (PGlite by default, PostgreSQL with BRIER_TEST_DATABASE=postgres).
 */

const fake = createFakeVenues();
const options: IngestOptions = {
  trigger: "test",
  attempts: 2,
  backoffMs: 20,
  attemptTimeoutMs: 1500,
  venues: ["polymarket"],
  exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
};

async function crashMidPoll(leaseLeftMs: number): Promise<string> {
  const db = await getDb();
  // What the dead process left: its lease (holder from another process) and its run row.
  await db.insert(ingestLeases).values({ venue: "polymarket", holder: "dead-process:run", expiresAt: new Date(Date.now() + leaseLeftMs) });
  const [run] = await db.insert(ingestRuns).values({ venue: "polymarket", trigger: "schedule", outcome: "running" }).returning();
  return run?.id ?? "";
}

async function lastRunOutcome(): Promise<string | undefined> {
  const { key } = await makeKey("free");
  const res = await callRoute(status, { path: "/v0/status", key });
  const body = res.body as { catalog: { venues: Array<{ venue: string; lastRun: { outcome: string } | null }> } };
  return body.catalog.venues.find((v) => v.venue === "polymarket")?.lastRun?.outcome;
}

beforeAll(async () => {
  await fake.listen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(ingestRuns);
  await db.delete(ingestLeases);
});

describe("the venue lease after a crash mid-poll", () => {
  it("holds a lease at most LEASE_TTL_MS ahead, heartbeated while the run lives", async () => {
    const db = await getDb();
    const lease = await acquireVenueLease(db, "polymarket");
    expect(lease).toBeDefined();
    const [row] = await db.select().from(ingestLeases).where(eq(ingestLeases.venue, "polymarket"));
    expect((row?.expiresAt.getTime() ?? Infinity) - Date.now()).toBeLessThanOrEqual(LEASE_TTL_MS);
    // The heartbeat moves it forward while the holder lives.
    await new Promise((resolve) => setTimeout(resolve, LEASE_HEARTBEAT_MS + 400));
    const [beaten] = await db.select().from(ingestLeases).where(eq(ingestLeases.venue, "polymarket"));
    expect(beaten?.expiresAt.getTime() ?? 0).toBeGreaterThan(row?.expiresAt.getTime() ?? Infinity);
    // A live holder keeps others out; released, the venue is free at once.
    expect(await acquireVenueLease(db, "polymarket")).toBeUndefined();
    await lease?.release();
    const next = await acquireVenueLease(db, "polymarket");
    expect(next).toBeDefined();
    await next?.release();
  });

  if (config.embeddedPostgres) {
    it("embedded: a starting process takes a dead process's lease at once and /v0/status never shows its run running", async () => {
      // Even a lease with the old formula's 444 s left: the data-dir lock proves its holder is dead.
      const deadRun = await crashMidPoll(444_000);
      expect(await lastRunOutcome()).toBe("abandoned");
      const [summary] = await ingestVenues(await getDb(), options);
      expect(summary).toMatchObject({ outcome: "succeeded" });
      const [row] = await (await getDb()).select().from(ingestRuns).where(eq(ingestRuns.id, deadRun));
      expect(row?.outcome).toBe("abandoned");
      expect(await lastRunOutcome()).toBe("succeeded");
    });
  } else {
    it("PostgreSQL: a dead holder's lease expires within seconds, then the next poll runs; /v0/status shows the dead run abandoned once it has", async () => {
      // The holder died 13.5 s into its 15-s heartbeated lease: 1.5 s left, no heartbeat coming.
      const deadRun = await crashMidPoll(1_500);
      expect(await lastRunOutcome()).toBe("running"); // another instance may still be polling: trust the live lease
      const [skipped] = await ingestVenues(await getDb(), options);
      expect(skipped).toMatchObject({ outcome: "skipped" });
      await new Promise((resolve) => setTimeout(resolve, 1_700));
      expect(await lastRunOutcome()).toBe("abandoned");
      const [summary] = await ingestVenues(await getDb(), options);
      expect(summary).toMatchObject({ outcome: "succeeded" });
      const [row] = await (await getDb()).select().from(ingestRuns).where(eq(ingestRuns.id, deadRun));
      expect(row?.outcome).toBe("abandoned");
    });
  }
});
