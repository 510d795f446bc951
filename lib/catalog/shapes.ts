import { z } from "zod";
import { resolutionPublic } from "@/lib/outcomes/shapes";
import { categories } from "./categories";
import { decodeCursor, listSorts, type Cursor, type ListSort } from "./cursor";
import { MAX_QUERY_LENGTH } from "./limits";
import { exchangeKeys } from "./venues";

/**
 * The /v0 catalog's request and response shapes: one source of truth for validation, for the
 * public JSON (rows are parsed through these before they leave) and for GET /v0/openapi.json.
 */

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 50;
/** Up to this many matching rows are counted exactly (meta.total); beyond it meta.totalEstimate. */
export const TOTAL_EXACT_LIMIT = 10_000;
/**
 * The same bound for a search (`query=`): its count rechecks every match's row (~15 µs each at 1M),
 * so 10,001 matches cost 150-200 ms on a new text's first page; at 2,001 the count is what the
 * search's plan needs anyway (few matches are read whole, more are walked: lib/catalog/list.ts).
 */
export const SEARCH_EXACT_LIMIT = 2_000;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

const nonNegativeInt = (what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .union([
        z.number(),
        z
          .string()
          .regex(/^[+-]?\d+$/, `${what} must be an integer`)
          // Out-of-range digits saturate (a huge limit is still "above the cap", not a type error).
          .transform((s) => Math.max(Math.min(Number(s), Number.MAX_SAFE_INTEGER), -Number.MAX_SAFE_INTEGER)),
        // Without its own message a union that fails says only "Invalid input" (`limit=abc`).
      ], { error: `${what} must be an integer` })
      .pipe(z.number().int(`${what} must be an integer`).min(0, `${what} must be 0 or more`))
      .optional(),
  );

const searchText = z.preprocess(
  blankToUndefined,
  z
    .string()
    .max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`)
    // Control characters never occur in titles or slugs; U+001F separates them in search_text.
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "must not contain control characters")
    .optional(),
);

const exchangeKey = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((value) => exchangeKeys.includes(value), {
      message: `must be one of: ${exchangeKeys.join(", ")}`,
    })
    .optional(),
);

const listQueryInput = z.object({
  query: searchText.describe(
    "Words to search for, any case: every word must start a word of the title (those markets first) or of the " +
      "title and slug together (after them); each group in the list's order. A text without a letter or digit " +
      `matches as a literal substring of the title, then the slug. At most ${MAX_QUERY_LENGTH} characters.`,
  ),
  q: searchText.describe("Alias of `query`."),
  limit: nonNegativeInt("limit")
    .refine((value) => value === undefined || value >= 1, "limit must be 1 or more")
    .describe(`Rows per page; default ${DEFAULT_LIMIT}; values above ${MAX_LIMIT} are served as ${MAX_LIMIT}.`),
  offset: nonNegativeInt("offset").describe("Rows to skip; default 0. Prefer `cursor` to walk the whole catalog."),
  closed: z
    .preprocess(
      blankToUndefined,
      z
        .union([z.boolean(), z.enum(["true", "false"], "closed must be true or false").transform((s) => s === "true")])
        .optional(),
    )
    .describe("Default false: only open markets. true also includes closed and resolved markets."),
  category: z
    .preprocess(blankToUndefined, z.enum(categories, `must be one of: ${categories.join(", ")}`).optional())
    .describe(`Exact match on the normalized category: ${categories.join(", ")}.`),
  exchange: exchangeKey.describe("Restricts to one venue (a pmxt-core exchange key, e.g. polymarket, kalshi)."),
  sourceExchange: exchangeKey.describe("Alias of `exchange`."),
  sort: z
    .preprocess(blankToUndefined, z.enum(listSorts, `must be one of: ${listSorts.join(", ")}`).optional())
    .describe(
      "Order of the list. volume24h (default): 24-hour volume, highest first. change24h: largest absolute 24-hour " +
        "price move of any outcome first. liquidity: highest first, unknown last. resolutionDate: soonest first, " +
        "unknown last. newest: most recently first seen by ingestion first (`firstSeenAt`). Ties by id.",
    ),
  cursor: z
    .preprocess(blankToUndefined, z.string().max(512, "cursor is malformed").optional())
    .describe(
      "Opaque keyset cursor from `meta.nextCursor`: continues after the last row of the previous page, so a walk " +
        "neither skips nor repeats rows while the catalog changes. Not combinable with a non-zero offset.",
    ),
});

export interface ListQuery {
  query: string | undefined;
  limit: number;
  offset: number;
  closed: boolean;
  category: (typeof categories)[number] | undefined;
  exchange: string | undefined;
  cursor: Cursor | undefined;
  /** List order; absent means volume24h (callers building a query in code may leave it out). */
  sort?: ListSort;
}

const listQuery = listQueryInput.transform((input, ctx): ListQuery => {
  const fail = (path: string, message: string) => {
    ctx.addIssue({ code: "custom", path: [path], message });
    return z.NEVER;
  };
  if (input.query !== undefined && input.q !== undefined && input.query !== input.q) {
    return fail("q", "q is an alias of query: send one of them");
  }
  if (input.exchange !== undefined && input.sourceExchange !== undefined && input.exchange !== input.sourceExchange) {
    return fail("sourceExchange", "sourceExchange is an alias of exchange: send one of them");
  }
  let cursor: Cursor | undefined;
  if (input.cursor !== undefined) {
    cursor = decodeCursor(input.cursor);
    if (cursor === undefined) return fail("cursor", "cursor is malformed: pass meta.nextCursor back unchanged");
    if ((input.offset ?? 0) > 0) return fail("offset", "offset cannot be combined with cursor");
    if (cursor.sort !== (input.sort ?? "volume24h")) {
      return fail("cursor", `cursor belongs to sort=${cursor.sort}: pass the same sort with it`);
    }
  }
  return {
    query: input.query ?? input.q,
    limit: Math.min(input.limit ?? DEFAULT_LIMIT, MAX_LIMIT),
    offset: cursor === undefined ? (input.offset ?? 0) : 0,
    closed: input.closed ?? false,
    category: input.category,
    exchange: input.exchange ?? input.sourceExchange,
    cursor,
    sort: input.sort ?? "volume24h",
  };
});

/** GET /v0/markets query (input: the query string as an object of strings, or typed values). */
export const listMarketsQuery = listQuery;
/** GET /v0/events query: the same filters as markets, applied to events. */
export const listEventsQuery = listQuery;
/** The parameters both list endpoints accept (for the OpenAPI document). */
export const listQueryParameters = listQueryInput;

export const outcomePublic = z.object({
  outcomeId: z
    .string()
    .describe("Outcome id for trading and ticks: the CLOB token id on Polymarket (= asset_id in /v0/sql), the ticker on Kalshi."),
  label: z.string().describe("Outcome label."),
  price: z
    .number()
    .describe("Current price, a probability between 0 and 1, rounded to the venue's price increment (see docs/catalog.md)."),
  priceChange24h: z
    .number()
    .describe("Absolute price change over 24 hours; positive, negative or zero; rounded like price."),
});

export const marketPublic = z.object({
  marketId: z.uuid().describe("Catalog id: UUID v5 of (exchange, venueMarketId), stable across re-ingestion."),
  eventId: z.uuid().describe("Catalog id of the parent event."),
  exchange: z.string().describe("Venue key (pmxt-core exchange name) the market comes from."),
  venueMarketId: z.string().describe("The venue's own market id, usable on /api/{exchange}/{method}."),
  title: z.string().describe("Market title."),
  slug: z.string().nullable().describe("URL slug of the market on its venue."),
  description: z.string().nullable().describe("Long description or resolution rules."),
  category: z.enum(categories).describe("Normalized category."),
  outcomes: z.array(outcomePublic).describe("Outcomes with current prices."),
  yes: outcomePublic.optional().describe("The Yes outcome, on binary markets."),
  no: outcomePublic.optional().describe("The No outcome, on binary markets."),
  volume24h: z.number().describe("Trading volume over the last 24 hours (venue units, USD for most)."),
  volume: z.number().nullable().describe("Lifetime trading volume."),
  liquidity: z.number().nullable().describe("Current liquidity as the venue reports it."),
  openInterest: z.number().nullable().describe("Value of outstanding contracts."),
  status: z.string().nullable().describe("Venue-native lifecycle status (active, closed, archived, settled, ...)."),
  closed: z.boolean().describe("True once the venue says the market is closed or resolved."),
  resolutionDate: z.iso.datetime().nullable().describe("When the market is scheduled to resolve (ISO 8601)."),
  contractAddress: z
    .string()
    .nullable()
    .describe("Polymarket condition id (hex; = column `market` in /v0/sql); other venues' contract id when they have one."),
  url: z.string().nullable().describe("The market's page on its venue."),
  image: z.string().nullable().describe("Image URL."),
  firstSeenAt: z.iso.datetime().describe("First ingestion that saw this market; re-ingestion never changes it (sort=newest)."),
  updatedAt: z.iso
    .datetime()
    .describe("Last ingestion that changed this market (re-ingesting identical data writes nothing and leaves it)."),
  resolution: resolutionPublic.describe("What happened: the market's outcome as its venue stated it (docs/outcomes.md)."),
});

export type MarketPublic = z.infer<typeof marketPublic>;

export const eventPublic = z.object({
  eventId: z.uuid().describe("Catalog id: UUID v5 of (exchange, venueEventId), stable across re-ingestion."),
  exchange: z.string().describe("Venue key the event comes from."),
  venueEventId: z.string().describe("The venue's own event id."),
  title: z.string().describe("Event title."),
  slug: z.string().nullable().describe("URL slug of the event on its venue."),
  description: z.string().nullable().describe("Long description."),
  category: z.enum(categories).describe("Normalized category."),
  tags: z.array(z.string()).describe("The venue's tags."),
  image: z.string().nullable().describe("Image URL."),
  url: z.string().nullable().describe("The event's page on its venue."),
  volume24h: z.number().describe("Sum of its markets' 24-hour volume."),
  volume: z.number().nullable().describe("Lifetime volume."),
  closed: z.boolean().describe("True once every market of the event is closed."),
  resolutionDate: z.iso.datetime().nullable().describe("Latest resolution date of its markets."),
  firstSeenAt: z.iso.datetime().describe("First ingestion that saw this event; re-ingestion never changes it (sort=newest)."),
  updatedAt: z.iso
    .datetime()
    .describe("Last ingestion that changed this event (re-ingesting identical data writes nothing and leaves it)."),
  markets: z
    .array(marketPublic)
    .describe("Its markets, by volume24h descending; with closed=false only open ones."),
});

export type EventPublic = z.infer<typeof eventPublic>;

export const listMeta = z.object({
  count: z.number().int().describe("Number of rows in data."),
  limit: z.number().int().describe(`Effective limit (values above ${MAX_LIMIT} are served as ${MAX_LIMIT}).`),
  offset: z.number().int().describe("Effective offset (0 when a cursor is used)."),
  nextCursor: z
    .string()
    .nullable()
    .describe("Pass as `cursor` to get the next page; null when this page is the last."),
  total: z
    .number()
    .int()
    .nullable()
    .describe(
      `Exact number of rows matching the filters (all pages), or null when more than ${TOTAL_EXACT_LIMIT} match ` +
        `(more than ${SEARCH_EXACT_LIMIT} with \`query\`).`,
    ),
  totalEstimate: z
    .number()
    .int()
    .nullable()
    .describe(
      `When more than ${TOTAL_EXACT_LIMIT} rows match (${SEARCH_EXACT_LIMIT} with \`query\`): the database planner's ` +
        `estimate of the number (at least ${TOTAL_EXACT_LIMIT + 1}, or ${SEARCH_EXACT_LIMIT + 1}); null when total is exact.`,
    ),
});

export const marketListResponse = z.object({ data: z.array(marketPublic), meta: listMeta });
export const eventListResponse = z.object({ data: z.array(eventPublic), meta: listMeta });

export type ListMeta = z.infer<typeof listMeta>;
