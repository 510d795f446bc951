import "client-only";
import type { EventPublic, MarketPublic } from "@/lib/catalog/shapes";

/**
 * The catalog's current view as CSV (RFC 4180: comma, CRLF, quotes doubled), one row per market
 * or event, prices as the API serves them (probabilities 0..1, already at the venue's tick).
 */

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : String(value);
  // A leading =, +, - or @ makes spreadsheets evaluate the cell: quote it with a leading apostrophe.
  const safe = /^[=+\-@]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** Outcomes as `label=price` pairs in one cell, so a market with many outcomes stays one row. */
const outcomeCell = (market: MarketPublic) => market.outcomes.map((o) => `${o.label}=${o.price}`).join("; ");

export function marketsCsv(markets: readonly MarketPublic[]): string {
  return toCsv(
    ["marketId", "exchange", "title", "category", "yesPrice", "yesChange24h", "outcomes", "volume24h", "liquidity", "resolutionDate", "closed", "url"],
    markets.map((m) => {
      const yes = m.yes ?? m.outcomes[0];
      return [m.marketId, m.exchange, m.title, m.category, yes?.price, yes?.priceChange24h, outcomeCell(m), m.volume24h, m.liquidity, m.resolutionDate, m.closed, m.url];
    }),
  );
}

export function eventsCsv(events: readonly EventPublic[]): string {
  return toCsv(
    ["eventId", "exchange", "title", "category", "markets", "volume24h", "resolutionDate", "closed", "url"],
    events.map((e) => [e.eventId, e.exchange, e.title, e.category, e.markets.length, e.volume24h, e.resolutionDate, e.closed, e.url]),
  );
}
