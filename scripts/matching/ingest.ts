/**
 * Serves a labelled set from the loopback fake venue in the venues' wire formats and ingests it
 * through the real catalog path (pmxt-core -> normalize -> upsert; the ingestion runs the
 * incremental matching pass). Import it only after DATA_DIR is set: it opens the store.
 */
import { ingestCatalog } from "@/lib/jobs/catalog";
import { getDb, type Db } from "@/lib/db";
import { createExchange } from "@/lib/venues/factory";
import { createFakeVenues } from "../../test/fakes/venue-server";
import { readFixture, type LabelledSet } from "./labelled";

export async function ingestSet(set: LabelledSet): Promise<Db> {
  const fake = createFakeVenues();
  fake.data.gammaEvents = readFixture(set, "polymarket_gamma_events.json") as typeof fake.data.gammaEvents;
  fake.data.kalshiEvents = (readFixture(set, "kalshi_events.json") as { events: typeof fake.data.kalshiEvents }).events;
  fake.data.kalshiSeries = (readFixture(set, "kalshi_series.json") as { series: typeof fake.data.kalshiSeries }).series;
  await fake.listen();
  const db = await getDb();
  try {
    const runs = await ingestCatalog(db, {
      venues: ["polymarket", "kalshi"],
      trigger: "cli",
      // A whole catalog keeps the loopback server and the store in one busy process: a keep-alive
      // socket closed under load is retried as a venue would be.
      attempts: 3,
      exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
      // The venues' settlement fields (strikes, secondary rules, named sources), from the same fake.
      settlementRedirectUrl: fake.url,
    });
    for (const run of runs) if (run.outcome !== "succeeded") throw new Error(`${run.venue} ingestion ${run.outcome}: ${run.error ?? ""}`);
  } finally {
    await fake.close();
  }
  return db;
}
