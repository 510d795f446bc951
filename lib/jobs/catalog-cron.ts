import "server-only";
import { getDb } from "@/lib/db";
import { InvalidParameterError } from "@/lib/errors";
import type { IngestRunSummary } from "@/lib/catalog/ingest";
import { ingestCatalog } from "./catalog";
import { catalogVenues } from "@/lib/catalog/venues";

/**
 * The cron trigger of the catalog poll (GET /api/cron/ingest, behind lib/http's withCronSecret):
 * polls the catalog venues, or the `requested` ones, which must be catalog venues, and reports
 * each run.
 */
export async function runCronIngest(requested: string[]): Promise<{ runs: IngestRunSummary[] }> {
  const configured = catalogVenues();
  for (const venue of requested) {
    if (!configured.includes(venue)) {
      throw new InvalidParameterError("venue", `venue must be one of the catalog venues: ${configured.join(", ")}`);
    }
  }
  const runs = await ingestCatalog(await getDb(), {
    venues: requested.length > 0 ? requested : configured,
    trigger: "cron",
  });
  return { runs };
}
