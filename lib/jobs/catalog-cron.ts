import "server-only";
import { z } from "zod";
import type { IngestRunSummary } from "@/lib/catalog/ingest";
import { catalogVenues } from "@/lib/catalog/venues";
import { getDb } from "@/lib/db";
import { parseQuery } from "@/lib/input";
import { ingestCatalog } from "./catalog";

/**
 * The query of GET /api/cron/ingest: `venue`, one catalog venue or several comma-separated;
 * absent, every catalog venue. A parameter sent twice or an unknown one is a 400 (lib/input.ts).
 */
export function parseCronIngestQuery(searchParams: URLSearchParams): string[] {
  const configured = catalogVenues();
  const venue = z
    .string()
    .transform((value) => [...new Set(value.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== ""))])
    .pipe(
      z
        .array(z.string().refine((name) => configured.includes(name), `venue must be one of the catalog venues: ${configured.join(", ")}`))
        .min(1, "venue must name at least one catalog venue"),
    );
  return parseQuery(z.object({ venue: venue.optional() }).strict(), searchParams).venue ?? configured;
}

/**
 * The cron trigger of the catalog poll (GET /api/cron/ingest, behind lib/http's withCronSecret):
 * polls the given catalog venues and reports each run.
 */
export async function runCronIngest(venues: string[]): Promise<{ runs: IngestRunSummary[] }> {
  return { runs: await ingestCatalog(await getDb(), { venues, trigger: "cron" }) };
}
