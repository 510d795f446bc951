import type { VenueSettlementFields } from "../venue";
import type { KalshiEvent, KalshiMarket, KalshiRest, KalshiSeries, KalshiSettlementSource } from "./rest";

/*
 * The settlement terms Kalshi states as fields, which pmxt-core's normaliser drops (it keeps
 * `rules_primary`, or `rules_secondary` when that is empty, as the description): each market's
 * `strike_type` with its `floor_strike`, `cap_strike` or `functional_strike`, its `rules_secondary`,
 * and the `settlement_sources` of its event and its series (docs/matching.md, "Settlement terms").
 * Read from `GET /events?with_nested_markets=true&status=open` (cursor paged) and `GET /series`.
 */

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** A strike as a number: Kalshi sends numbers, some clients text. */
function strike(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function sourcesOf(...lists: Array<KalshiSettlementSource[] | null | undefined>): Array<{ name?: string; url?: string }> {
  const out: Array<{ name?: string; url?: string }> = [];
  const seen = new Set<string>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const source of list) {
      const name = text(source?.name);
      const url = text(source?.url);
      if (name === undefined && url === undefined) continue;
      const key = `${name ?? ""}|${url ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...(name === undefined ? {} : { name }), ...(url === undefined ? {} : { url }) });
    }
  }
  return out;
}

/** One market's settlement fields, with its event's and its series' sources; a field left out stays out. */
export function kalshiSettlementFields(market: KalshiMarket, event?: KalshiEvent, series?: KalshiSeries): VenueSettlementFields {
  const fields: VenueSettlementFields = {};
  const strikeType = text(market.strike_type);
  if (strikeType !== undefined) fields.strikeType = strikeType.toLowerCase();
  const floor = strike(market.floor_strike);
  if (floor !== undefined) fields.floorStrike = floor;
  const cap = strike(market.cap_strike);
  if (cap !== undefined) fields.capStrike = cap;
  const functional = typeof market.functional_strike === "string" ? text(market.functional_strike) : undefined;
  if (functional !== undefined) fields.functionalStrike = functional;
  const secondary = text(market.rules_secondary);
  if (secondary !== undefined) fields.rulesSecondary = secondary;
  const sources = sourcesOf(event?.settlement_sources, series?.settlement_sources);
  if (sources.length > 0) fields.sources = sources;
  return fields;
}

/** Every open market's settlement fields, keyed by its ticker (the catalog's `venueMarketId`). */
export async function sweepKalshiSettlement(rest: KalshiRest): Promise<Array<{ venueMarketId: string; fields: VenueSettlementFields }>> {
  const series = new Map<string, KalshiSeries>();
  for (const s of await rest.series()) if (typeof s.ticker === "string") series.set(s.ticker, s);
  const out: Array<{ venueMarketId: string; fields: VenueSettlementFields }> = [];
  for await (const events of rest.eventPages({ status: "open", with_nested_markets: true })) {
    for (const event of events) {
      const ofSeries = typeof event.series_ticker === "string" ? series.get(event.series_ticker) : undefined;
      for (const market of Array.isArray(event.markets) ? event.markets : []) {
        if (typeof market.ticker !== "string" || market.ticker === "") continue;
        out.push({ venueMarketId: market.ticker, fields: kalshiSettlementFields(market, event, ofSeries) });
      }
    }
  }
  return out;
}
