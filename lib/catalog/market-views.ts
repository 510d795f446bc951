import "server-only";
import { eq, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import { events } from "@/lib/db/schema/events";
import { markets } from "@/lib/db/schema/markets";
import { marketQuotes } from "@/lib/db/schema/quotes";
import { quoteOfMarket } from "./public";

/**
 * The catalog's markets as subqueries another folder joins to its own table in one statement
 * (lib/catalog owns `events`, `markets` and `market_quotes`: docs/architecture.md, "Layers and
 * folders"). Each is a plain join the PostgreSQL planner pulls up into the caller's query, so the
 * caller's statement costs what a join of the tables themselves would; the caller sees only the
 * columns named here, never the tables. A computed column's name carries its subquery's (drizzle
 * refers to it unqualified in the outer statement, where a caller's column of the same name would
 * make it ambiguous).
 */
const builder = new QueryBuilder();

/**
 * Every market with what a pair's side is filtered and ordered by: its event, category, title and
 * the last quote's Yes price (its first outcome's; 0 when it has none). `name` is the subquery's
 * alias (one per side of a pair).
 */
export function marketSides(name: string) {
  return builder
    .select({
      id: markets.id,
      eventId: markets.eventId,
      category: markets.category,
      title: markets.title,
      yesPrice: sql<number>`coalesce((${marketQuotes.outcomes}->0->>'price')::float8, 0)`.as(`${name}_yes_price`),
    })
    .from(markets)
    .innerJoin(marketQuotes, quoteOfMarket)
    .as(name);
}

/**
 * Every market with the text a reader of its wording compares (its event's title and tags, its
 * Yes label, rules, resolution date and whether it closed) and `fingerprint`, an md5 of that text:
 * any change to the text changes it, so a caller that kept the fingerprint it read re-reads only
 * markets whose text changed.
 */
export function marketTexts() {
  return builder
    .select({
      id: markets.id,
      venue: markets.venue,
      eventId: markets.eventId,
      category: markets.category,
      title: markets.title,
      eventTitle: sql<string>`${events.title}`.as("market_text_event_title"),
      yesLabel: sql<string | null>`${markets.outcomes}->0->>'label'`.as("market_text_yes_label"),
      description: markets.description,
      resolutionDate: markets.resolutionDate,
      tags: events.tags,
      fingerprint: sql<string>`md5(concat_ws(chr(31), ${markets.title}, ${events.title}, ${markets.outcomes}->0->>'label', ${markets.description}, ${markets.resolutionDate}::text, ${markets.closed}::text, array_to_string(${events.tags}, chr(30))))`.as("market_text_fingerprint"),
    })
    .from(markets)
    .innerJoin(events, eq(events.id, markets.eventId))
    .as("market_texts");
}

/** Every market with what its venue knows it by (venue, venue market id); `name` is the subquery's alias. */
export function marketKeys(name: string) {
  return builder.select({ id: markets.id, venue: markets.venue, venueMarketId: markets.venueMarketId }).from(markets).as(name);
}
