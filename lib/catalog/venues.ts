import { config } from "@/lib/config";
import { buildableExchanges } from "@/lib/venues/factory";

/**
 * The seven venues whose public catalog pmxt-core 2.41 reads without credentials. Baozi is the
 * seventh: its fetchEvents reads Solana program accounts over public JSON-RPC, while Metaculus,
 * Smarkets, Polymarket US, Hyperliquid and Gemini Titan need an account or token to list.
 */
export const publicCatalogVenues = ["polymarket", "kalshi", "limitless", "myriad", "probable", "opinion", "baozi"] as const;

/** Exchange keys a client may name in `exchange=` (every pmxt-core venue Brier builds, not the router). */
export const exchangeKeys: readonly string[] = buildableExchanges.filter((key) => key !== "router");

/**
 * The venues the poller ingests: CATALOG_VENUES when set, otherwise the public seven, plus `mock`
 * whenever Postgres is embedded (a newcomer offline sees a populated catalog). With DATABASE_URL,
 * `mock` only when listed. Under `npm run demo` (DEMO_LIVE) the demo's own ticker polls `mock`,
 * priced from its simulated books (lib/demo/live.ts), so the schedule leaves it out.
 */
export function catalogVenues(): string[] {
  const venues: string[] = config.catalog.venues !== undefined && config.catalog.venues.length > 0 ? [...new Set(config.catalog.venues)] : [...publicCatalogVenues, ...(config.embeddedPostgres ? ["mock"] : [])];
  return config.demoLive ? venues.filter((venue) => venue !== "mock") : venues;
}
