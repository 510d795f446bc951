import "server-only";
import { topOutcomeTokens } from "@/lib/catalog/assets";
import { catalogVenues } from "@/lib/catalog/venues";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";

/** The recorder's exchange: it follows Polymarket's market channel (the only venue whose books it records). */
const RECORDED_EXCHANGE = "polymarket";

/**
 * Why a running recorder follows no asset, in words for the status page (null when it follows
 * some, or is not running in this process). It subscribes to the outcome tokens of the catalog's
 * open Polymarket markets that have a condition id, top RECORDER_MAX_ASSETS by 24h volume.
 */
export async function recorderIdleReason(db: Db, subscribedAssets: unknown): Promise<string | null> {
  if (subscribedAssets !== 0) return null;
  if (config.recorder.maxAssets === 0) return "RECORDER_MAX_ASSETS=0: the recorder is configured to follow no asset.";
  // Whole markets only: a limit below a market's token count would return none.
  const tokens = await topOutcomeTokens(db, { exchange: RECORDED_EXCHANGE, limit: 100 });
  if (tokens.length > 0) return "The catalog has Polymarket markets to follow; the recorder subscribes to them at its next refresh of the asset list.";
  const polled = catalogVenues().includes(RECORDED_EXCHANGE);
  return polled
    ? "No catalog market to follow yet: the recorder follows open Polymarket markets with a condition id, and the catalog has none so far (see the catalog ingestion above)."
    : `No catalog market to follow yet: the recorder follows open Polymarket markets, and this deployment does not ingest Polymarket (CATALOG_VENUES=${catalogVenues().join(",")}).`;
}
