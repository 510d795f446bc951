import type { VenueSettlementFields } from "../venue";
import type { GammaEvent, GammaMarket, PolymarketRest } from "./rest";

/*
 * The settlement source Polymarket states as a field, which pmxt-core's normaliser drops: a Gamma
 * market's `resolutionSource`, else its event's (docs/matching.md, "Settlement terms"). Read from
 * `GET /events?closed=false` (offset paged), each event with its markets.
 */

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** One market's settlement fields: its own `resolutionSource`, else its event's; none when neither names one. */
export function polymarketSettlementFields(market: GammaMarket, event?: GammaEvent): VenueSettlementFields {
  const source = text(market.resolutionSource) ?? text(event?.resolutionSource);
  if (source === undefined) return {};
  return { sources: [/^https?:\/\//i.test(source) ? { url: source } : { name: source }] };
}

/** Every open market's settlement fields, keyed by its Gamma id (the catalog's `venueMarketId`). */
export async function sweepPolymarketSettlement(rest: PolymarketRest): Promise<Array<{ venueMarketId: string; fields: VenueSettlementFields }>> {
  const out: Array<{ venueMarketId: string; fields: VenueSettlementFields }> = [];
  for await (const events of rest.eventPages({ closed: false })) {
    for (const event of events) {
      for (const market of Array.isArray(event.markets) ? event.markets : []) {
        const id = market.id === undefined || market.id === null ? undefined : String(market.id);
        if (id === undefined || id === "") continue;
        out.push({ venueMarketId: id, fields: polymarketSettlementFields(market, event) });
      }
    }
  }
  return out;
}
