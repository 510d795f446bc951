import "server-only";
import { timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { InvalidParameterError, UnauthorizedError } from "@/lib/errors";
import { ingestVenues, type IngestRunSummary } from "./ingest";
import { catalogVenues } from "./venues";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /api/cron/ingest (Vercel cron): checks `Authorization: Bearer $CRON_SECRET`, then polls the
 * catalog venues (or the `venue` parameters, which must be catalog venues) and reports each run.
 * Unset CRON_SECRET: every call is refused, so the route is never an open trigger.
 */
export async function runCronIngest(
  authorization: string | null,
  searchParams: URLSearchParams,
): Promise<{ runs: IngestRunSummary[] }> {
  const secret = config.cronSecret;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (secret === undefined || match?.[1] === undefined || !sameSecret(match[1], secret)) {
    throw new UnauthorizedError("Cron calls need 'Authorization: Bearer <CRON_SECRET>'.");
  }
  const configured = catalogVenues();
  const requested = searchParams.getAll("venue");
  for (const venue of requested) {
    if (!configured.includes(venue)) {
      throw new InvalidParameterError("venue", `venue must be one of the catalog venues: ${configured.join(", ")}`);
    }
  }
  const runs = await ingestVenues(await getDb(), {
    venues: requested.length > 0 ? requested : configured,
    trigger: "cron",
  });
  return { runs };
}
