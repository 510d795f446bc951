import { createHash } from "node:crypto";

/** Brier's own UUID v5 namespace for catalog ids (random, fixed forever: changing it changes every id). */
export const CATALOG_NAMESPACE = "4d1a3b8e-6c2f-4f5e-9a07-2b9c8e51d3a6";

const namespaceBytes = Buffer.from(CATALOG_NAMESPACE.replaceAll("-", ""), "hex");

/** RFC 4122 UUID v5 (SHA-1, name-based) of `name` in the catalog namespace. */
export function uuidV5(name: string): string {
  const hash = createHash("sha1").update(namespaceBytes).update(name, "utf8").digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The catalog id of an event: stable across re-ingestion and rebuilds. */
export const eventUuid = (venue: string, venueEventId: string): string => uuidV5(`${venue}\u0000event\u0000${venueEventId}`);

/** The catalog id of a market (a separate name space from events: Myriad uses one id for both). */
export const marketUuid = (venue: string, venueMarketId: string): string =>
  uuidV5(`${venue}\u0000market\u0000${venueMarketId}`);

/**
 * A stable synthetic contract address (`0x` + 64 hex) for a venue market that has none, so tick
 * tables keyed by `market` can still hold it. Synthetic: it exists on no chain.
 */
export const syntheticContractAddress = (venue: string, venueMarketId: string): string =>
  `0x${createHash("sha256").update(`${venue}\u0000${venueMarketId}`).digest("hex")}`;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A market or event named by its page on the venue, as an analyst copies it from the browser:
 * - Polymarket `https://polymarket.com/event/<event-slug>[/<market-slug>]` or `/market/<market-slug>`;
 * - Kalshi `https://kalshi.com/markets/<series>[/<words>]/<ticker>` (the last segment is the event
 *   or market ticker, lower-cased in the URL; the venue's ids are upper case).
 * A query string, a fragment and a trailing slash are ignored. Undefined for anything else.
 */
export type VenueUrlRef =
  | { venue: "polymarket"; eventSlug: string | undefined; marketSlug: string | undefined }
  | { venue: "kalshi"; series: string; ticker: string | undefined };

const VENUE_HOSTS: Record<string, VenueUrlRef["venue"]> = {
  "polymarket.com": "polymarket",
  "www.polymarket.com": "polymarket",
  "kalshi.com": "kalshi",
  "www.kalshi.com": "kalshi",
};

export function parseVenueUrl(ref: string): VenueUrlRef | undefined {
  let text = ref.trim();
  // A path parameter may arrive still percent-encoded (https%3A%2F%2F...).
  if (/^https?%3A/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  if (!/^https?:\/\//i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const venue = VENUE_HOSTS[url.hostname.toLowerCase()];
  const segments = url.pathname
    .split("/")
    .filter((s) => s !== "")
    .map((s) => decodeURIComponent(s));
  if (venue === "polymarket") {
    const [kind, first, second] = segments;
    if (kind === "event" && first !== undefined) return { venue, eventSlug: first, marketSlug: second };
    if (kind === "market" && first !== undefined) return { venue, eventSlug: undefined, marketSlug: first };
    return undefined;
  }
  if (venue === "kalshi") {
    const [kind, series, ...rest] = segments;
    if (kind !== "markets" || series === undefined) return undefined;
    const last = rest.at(-1);
    return { venue, series: series.toUpperCase(), ticker: last === undefined ? undefined : last.toUpperCase() };
  }
  return undefined;
}
