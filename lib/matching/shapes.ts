import { z } from "zod";
import { categories } from "@/lib/catalog/categories";
import { priceSources, type PriceSource } from "@/lib/live/price-source";
import { eventPublic, marketPublic } from "@/lib/catalog/shapes";
import { relations } from "./relations";
import { attributes } from "./compare/types";
import { ruleTerms } from "./rules";

/**
 * Request and response shapes of the matching endpoints (pmxt's hosted paths and shapes): one
 * source for validation, for the JSON that leaves and for the OpenAPI document.
 */

export const MATCH_MAX_LIMIT = 500;
export const MATCH_DEFAULT_LIMIT = 50;

const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

const unitNumber = (name: string) =>
  z.preprocess(
    blank,
    z
      .string()
      .regex(/^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/, `${name} must be a number between 0 and 1`)
      .transform(Number)
      .pipe(z.number().min(0, `${name} must be between 0 and 1`).max(1, `${name} must be between 0 and 1`))
      .optional(),
  );

const limit = z
  .preprocess(
    blank,
    z
      .string()
      .regex(/^\s*\d+\s*$/, "limit must be an integer between 1 and 500")
      .transform(Number)
      .pipe(z.number().int().min(1, "limit must be 1 or more"))
      .optional(),
  )
  .transform((v) => Math.min(v ?? MATCH_DEFAULT_LIMIT, MATCH_MAX_LIMIT))
  .describe(`Rows to return; default ${MATCH_DEFAULT_LIMIT}; values above ${MATCH_MAX_LIMIT} are served as ${MATCH_MAX_LIMIT}.`);

const bool = (name: string) =>
  z
    .preprocess(blank, z.enum(["true", "false"], `${name} must be true or false`).optional())
    .transform((v) => v === "true");

const relation = z.preprocess(blank, z.enum(relations, `relation must be one of: ${relations.join(", ")}`).optional());

const relationList = (fallback: readonly (typeof relations)[number][]) =>
  z
    .preprocess(
      blank,
      z
        .string()
        .transform((s) => s.split(",").map((r) => r.trim()).filter((r) => r !== ""))
        .pipe(z.array(z.enum(relations, `relations must be a comma-separated list of: ${relations.join(", ")}`)).min(1))
        .optional(),
    )
    .transform((v) => v ?? [...fallback]);

const asOf = z
  .preprocess(blank, z.iso.datetime({ offset: true, message: "asOf must be an ISO 8601 date-time, e.g. 2026-06-13T00:00:00Z" }).optional())
  .transform((v) => (v === undefined ? undefined : new Date(v)))
  .describe("Point in time: the matches that were valid then (default: now).");

const category = z
  .preprocess(blank, z.enum(categories, `category must be one of: ${categories.join(", ")}`).optional())
  .describe(`Both sides in this category: ${categories.join(", ")}.`);

const query = z
  .preprocess(blank, z.string().max(200, "query must be at most 200 characters").optional())
  .describe("Case-insensitive text either market's title contains.");

const verifiedFilter = z
  .preprocess(blank, z.enum(["true", "false"], "verified must be true or false").optional())
  .transform((v) => (v === undefined ? undefined : v === "true"))
  .describe("true: only pairs an operator confirmed (the review queue); false: only pairs not confirmed; absent: both.");

export const marketMatchesQuery = z.object({
  relation: relation.describe("Only matches with this relation (read from the requested market)."),
  minConfidence: unitNumber("minConfidence").describe("Minimum confidence, 0..1."),
  limit,
  includePrices: bool("includePrices").describe("Attach bestBid and bestAsk (live book, else the venue's book, else null; priceSource says which) and lastPrice to each market."),
  asOf,
  verified: verifiedFilter,
});

export const eventMatchesQuery = marketMatchesQuery;

export const matchedMarketsQuery = z.object({
  query,
  relations: relationList(["identity"]).describe("Comma-separated relations; default identity."),
  relation: relation.describe("Alias of a one-element `relations` (what pmxt-core's Router sends)."),
  category,
  minConfidence: unitNumber("minConfidence").describe("Minimum confidence, 0..1."),
  minDifference: unitNumber("minDifference").describe("Minimum Yes price difference, 0..1."),
  maxDifference: unitNumber("maxDifference").describe("Maximum Yes price difference, 0..1; default 0.20 when minDifference > 0, else 1."),
  limit,
  includePrices: bool("includePrices").describe("Attach bestBid and bestAsk (live book, else the venue's book, else null; priceSource says which) and lastPrice to both markets."),
  asOf,
  verified: verifiedFilter,
});

export const eventsMatchesQuery = z.object({
  query,
  relation: relation.describe("Only market matches with this relation."),
  category,
  minConfidence: unitNumber("minConfidence").describe("Minimum confidence, 0..1."),
  limit,
  asOf,
  verified: verifiedFilter,
});

export const arbitrageQuery = z.object({
  relations: relationList(["identity"]).describe("Comma-separated relations; default identity."),
  minSpread: unitNumber("minSpread").describe("Minimum spread, 0..1."),
  category,
  minConfidence: unitNumber("minConfidence").describe("Minimum confidence, 0..1."),
  limit,
  includePrices: bool("includePrices").describe("Attach bestBid and bestAsk (live book, else the venue's book, else null; priceSource says which) and lastPrice to both markets."),
  asOf,
  verified: verifiedFilter,
});

export type MarketMatchesQuery = z.output<typeof marketMatchesQuery>;
export type MatchedMarketsQuery = z.output<typeof matchedMarketsQuery>;
export type EventsMatchesQuery = z.output<typeof eventsMatchesQuery>;
export type ArbitrageQuery = z.output<typeof arbitrageQuery>;

/** Where includePrices' bestBid/bestAsk came from, or why they are null. */
export { priceSources, type PriceSource };

export const matchedMarketPublic = marketPublic.extend({
  sourceExchange: z.string().describe("pmxt's name for `exchange`."),
  bestBid: z.number().nullable().optional().describe("With includePrices: best Yes bid, when known (see priceSource)."),
  bestAsk: z.number().nullable().optional().describe("With includePrices: best Yes ask, when known (see priceSource)."),
  lastPrice: z.number().nullable().optional().describe("With includePrices: the catalog's Yes price."),
  priceSource: z
    .enum(priceSources)
    .optional()
    .describe(
      "With includePrices: where bestBid/bestAsk come from. recorder: Brier's live book of the outcome; venue: the venue's order book (cached a few seconds); venue_timeout / venue_error: the venue did not answer in time / answered an error, so both are null; venue_needs_credentials: the venue's client signs its book requests (Kalshi), which needs the caller's own keys (use /api/kalshi/fetchOrderBook with credentials), so both are null; no_outcome: the market has no outcome id to read a book of.",
    ),
});
export type MatchedMarketPublic = z.infer<typeof matchedMarketPublic>;

const relationField = z.enum(relations).describe("Read from the requested (or A) market to the other.");
const confidenceField = z.number().min(0).max(1).describe("0..1, from how much of the question was compared and agreed.");
const verifiedField = z.boolean().describe("An operator confirmed this pair with this relation (the review queue); false when not reviewed or rejected.");
const reasoningField = z.string().nullable().describe("What was compared (entity, date or deadline, threshold and direction, polarity, source) and how it agreed or differed.");

export const ruleDifference = z.object({
  term: z.enum(ruleTerms).describe("trigger: what counts (an announcement or the event itself); act: the act required (nominated, confirmed by the Senate, appointed by any means); stage: primary, general, first round, runoff; conditions: a condition one rule adds (scheduled by a date, popular vote, signed written agreement, full approval); rank: the place the Yes sentence requires among the contest's parties or candidates (first, second); observation: the value read at any moment of the window or once for a period; deadline: the latest date any paragraph of the rules lets the act or its result count by (two more than a day apart conflict); deadlineZone: the deadline's time zone; bound: inclusive or exclusive bound on one number, with the rules' rule for a value on a bracket edge (an edge one side leaves unsaid is said on one side only, unless its event's other brackets show a value can land on it); seats: a seat count against a majority or control of a chamber; members: the coalition's member list; source: who settles it; station: the weather station or airport read; windowStart: a window from listing or from a date (two dates more than a day apart conflict)."),
  a: z.string().describe("The requested (or A) market's rules, in their own words."),
  b: z.string().describe("The other (or B) market's rules, in their own words."),
});
export type RuleDifferencePublic = z.infer<typeof ruleDifference>;
const ruleDifferencesField = z
  .array(ruleDifference)
  .describe("Rule terms both markets state and state differently (each side's wording); a pair with any is at most overlap.");

export const difference = z.object({
  attribute: z
    .enum(attributes)
    .describe(
      "What differs: context (place, office, competition, asset, measure), option, quantity (threshold), time, season, names, positions, wording, date, negation, criteria (any of several against one), rules (a rule term, named in label), ambiguity (one market reads the same as `a[0]` other markets of the other venue).",
    ),
  state: z.enum(["conflict", "oneSide"]).describe("conflict: both state it, differently; oneSide: one states it and the other leaves it unsaid."),
  label: z.string().optional().describe("The context type or rule term, where the attribute has several."),
  a: z.array(z.string()).describe("The requested (or A) market's values."),
  b: z.array(z.string()).describe("The other (or B) market's values."),
});
export type DifferencePublic = z.infer<typeof difference>;
const differencesField = z.array(difference).describe("What the two markets state differently or one side only, as the engine compared them.");

/** Both markets' settlements (lib/matching/outcome-audit.ts): an identity whose two markets resolved differently is a proven false identity. */
export const pairOutcomesField = z
  .object({
    verdict: z.enum(["agreed", "disagreed", "unresolved"]).describe("disagreed: both resolved and Yes settled differently (for an identity: a proven false identity); unresolved: either has not resolved."),
    a: z.number().nullable().describe("What the requested (or A) market's Yes settled at: 1, 0, a split's value; null until resolved."),
    b: z.number().nullable().describe("The other (or B) market's."),
  })
  .describe("How the two markets settled.");

export const marketMatch = z.object({
  market: matchedMarketPublic,
  relation: relationField,
  confidence: confidenceField,
  reasoning: reasoningField,
  differences: differencesField,
  ruleDifferences: ruleDifferencesField,
  verified: verifiedField,
  firstSeenAt: z.iso.datetime().describe("When this pair was first matched."),
  validFrom: z.iso.datetime().describe("Start of this verdict's validity."),
  validTo: z.iso.datetime().nullable().describe("End of this verdict's validity; null while current."),
  engineVersion: z.string(),
  outcomes: pairOutcomesField,
});

export const marketMatchesResponse = z.object({
  data: z.object({ market: matchedMarketPublic, matches: z.array(marketMatch) }),
});

const eventBrief = eventPublic.extend({ markets: z.array(matchedMarketPublic) });

export const eventMarketMatch = z.object({
  sourceMarket: z.object({ id: z.string(), title: z.string() }),
  market: matchedMarketPublic,
  relation: relationField,
  confidence: confidenceField,
  reasoning: reasoningField,
  differences: differencesField,
  ruleDifferences: ruleDifferencesField,
  verified: verifiedField,
});

export const eventMatchesResponse = z.object({
  data: z.object({
    event: eventPublic,
    matches: z.array(z.object({ event: eventBrief, marketMatches: z.array(eventMarketMatch) })),
  }),
});

export const browseEventMatchesResponse = z.object({
  data: z.array(
    z.object({
      event: eventBrief,
      marketMatches: z.array(eventMarketMatch.extend({ sourceMarket: matchedMarketPublic })),
    }),
  ),
  meta: z.object({ count: z.number().int(), limit: z.number().int() }),
});

export const matchedPair = z.object({
  marketA: matchedMarketPublic,
  marketB: matchedMarketPublic,
  venueA: z.string(),
  venueB: z.string(),
  priceA: z.number().describe("A's Yes price."),
  priceB: z.number().describe("B's Yes price."),
  priceDifference: z.number().describe("|priceA - priceB|."),
  relation: relationField,
  confidence: confidenceField,
  reasoning: reasoningField,
  differences: differencesField,
  ruleDifferences: ruleDifferencesField,
  verified: verifiedField,
  outcomes: pairOutcomesField,
});

export const matchedPairsResponse = z.object({
  data: z.array(matchedPair),
  meta: z.object({ count: z.number().int(), limit: z.number().int() }),
});

export const arbitrageOpportunity = z.object({
  marketA: matchedMarketPublic,
  marketB: matchedMarketPublic,
  buyVenue: z.string().describe("Where Yes is bought (the cheaper Yes)."),
  sellVenue: z.string().describe("Where the other side is taken (No is bought)."),
  buyPrice: z.number(),
  sellPrice: z.number(),
  spread: z.number().describe("Gross edge per contract before fees and slippage."),
  relation: relationField,
  confidence: confidenceField,
  reasoning: z.string(),
  verified: verifiedField,
});

export const arbitrageResponse = z.object({
  data: z.array(arbitrageOpportunity),
  meta: z.object({ count: z.number().int(), limit: z.number().int() }),
});
