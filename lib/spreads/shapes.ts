import { z } from "zod";
import { boundedInt, instant } from "@/lib/history/params";
import { cursorParam } from "@/lib/input";

/**
 * The spread endpoints' request and answer shapes (docs/spreads.md): routes parse the query string
 * into these through lib/input.ts, every answer is parsed through its shape before it leaves, and
 * lib/spreads/openapi.ts is derived from the same shapes.
 */

export const SPREAD_MAX_LIMIT = 5000;
export const SPREAD_DEFAULT_LIMIT = 1000;
export const EPISODES_MAX_LIMIT = 1000;
export const MAX_SIZE = 100_000;
export const DEFAULT_SIZE = 100;
/** The pair page's size when it opens (contracts), and its longest window: what lib/spreads folds ahead. */
export const PAIR_PAGE_SIZE = 100;
export const PAIR_PAGE_WINDOW_MS = 7 * 86_400_000;
export const MAX_WINDOW_MS = 31 * 86_400_000;

/** Grid steps of `interval`; absent: a point at every change of either book. */
export const spreadIntervals = { "1s": 1_000, "10s": 10_000, "1m": 60_000, "5m": 300_000, "1h": 3_600_000 } as const;
export type SpreadInterval = keyof typeof spreadIntervals;

/** A pair's path segment: anything /v0/markets/{id} accepts, or an outcome id (that outcome, instead of the market's Yes). */
export const pairRefParam = z
  .string()
  .min(1, "is required")
  .max(600, "is at most 600 characters")
  .regex(/^[^\s/]+$/, "has characters no market or outcome id has");

const decimal = (min: number, max: number, what: string) =>
  z
    .string()
    .regex(/^-?\d{1,7}(\.\d{1,6})?$/, `must be a decimal number (${what})`)
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const size = decimal(0.01, MAX_SIZE, "contracts")
  .optional()
  .transform((value) => value ?? DEFAULT_SIZE)
  .describe(`Contracts traded on each venue for the executable spread (0.01–${MAX_SIZE}, default ${DEFAULT_SIZE}): both books are walked for it and each venue's fee of that order subtracted.`);

const pricing = z
  .enum(["identity", "complement"])
  .optional()
  .describe("identity: B's outcome pays when A's does; complement: B's other outcome does (priced against B's No). Default: complement for a stored disjoint match of the two markets, else identity.");

export const spreadsQuery = z
  .object({
    since: instant.optional().describe("Start of the window (ISO 8601 with zone, or epoch ms); default 24 hours before until."),
    until: instant.optional().describe("End of the window (inclusive); default now. At most 31 days after since."),
    interval: z.enum(["1s", "10s", "1m", "5m", "1h"]).optional().describe("A grid (1s, 10s, 1m, 5m, 1h): one point per grid instant, each book as of that instant. Absent: a point at every change of either book (and where a book becomes known or unknown)."),
    size,
    minSpread: decimal(-1, 1, "dollars per contract")
      .optional()
      .describe("Keep only the instants whose best net spread per contract after fees is at least this (dollars, -1..1); unknown instants are then left out."),
    pricing,
    limit: boundedInt(SPREAD_MAX_LIMIT, SPREAD_DEFAULT_LIMIT).describe(`Points per call (1–${SPREAD_MAX_LIMIT}, default ${SPREAD_DEFAULT_LIMIT}).`),
    cursor: cursorParam(z.tuple([z.literal("s"), z.number().int().positive()]))
      .optional()
      .describe("nextCursor of the previous page (same other parameters)."),
  })
  .strict();
export type SpreadsQuery = z.output<typeof spreadsQuery>;

export const episodesQuery = z
  .object({
    since: instant.optional().describe("Start of the window; default 24 hours before until."),
    until: instant.optional().describe("End of the window; default now. At most 31 days after since."),
    size,
    minSpread: decimal(-1, 1, "dollars per contract")
      .optional()
      .describe("The threshold: an episode is a stretch in which the net spread per contract after fees, for `size`, stayed above it (default 0)."),
    pricing,
    limit: boundedInt(EPISODES_MAX_LIMIT, 100).describe(`Episodes listed (1–${EPISODES_MAX_LIMIT}, default 100, oldest first); the daily summary counts all of them.`),
    cursor: cursorParam(z.tuple([z.literal("e"), z.number().int(), z.enum(["aToB", "bToA"])]))
      .optional()
      .describe("nextCursor of the previous page (same other parameters): the episodes after the last one listed."),
  })
  .strict();
export type EpisodesQuery = z.output<typeof episodesQuery>;

export const spreadStreamQuery = z.object({ size }).strict();
export type SpreadStreamQuery = z.output<typeof spreadStreamQuery>;

export const feesQuery = z
  .object({
    at: instant.optional().describe("The instant whose schedules to mark as in force; default now."),
    market: pairRefParam.optional().describe("A market (anything /v0/markets/{id} accepts): also its own fee as read from its venue's fields, every dated version, and the fee a spread is priced with at `at` (its basis: market, or the schedule's fallback)."),
  })
  .strict();
export type FeesQuery = z.output<typeof feesQuery>;

// ---- answers ----

const money = (description: string) => z.number().describe(description);
const nullableMoney = (description: string) => z.number().nullable().describe(description);

export const unknownReason = z.enum(["not_recorded", "no_book", "awaiting_snapshot", "out_of_sync", "market_closed"]);
export type UnknownReason = z.infer<typeof unknownReason>;

const quote = z
  .object({
    bid: nullableMoney("Best bid (dollars per contract); null when the side is empty."),
    bidSize: z.number().describe("Contracts at the best bid."),
    ask: nullableMoney("Best ask; null when the side is empty."),
    askSize: z.number().describe("Contracts at the best ask."),
  })
  .nullable();

const executableShape = z.object({
  perContract: nullableMoney("Net edge per contract after both venues' taker fees, dollars; null when a book is thinner than `size` or a fee is unknown."),
  total: nullableMoney("Net edge of the whole trade of `size` contracts, dollars; null as above."),
  fillable: z.number().describe("Contracts both books could fill (at most `size`)."),
  fees: nullableMoney("Both legs' taker fees, dollars, rounded as each venue rounds them; null when a venue's fee is unknown."),
  buyPrice: nullableMoney("Volume-weighted price paid on the buying venue."),
  sellPrice: nullableMoney("Volume-weighted price received on the selling venue."),
});

const byDirection = <T extends z.ZodType>(shape: T) => z.object({ aToB: shape, bToA: shape });

export const spreadPointPublic = z.object({
  t: z.number().int().describe("The instant, epoch ms (venue time, the tick tables' clock)."),
  known: z.boolean().describe("True when both books are known at t: recorded (coverage of both venues), rebuilt from a snapshot taken since the last gap, and in sync."),
  unknown: z
    .object({ a: unknownReason.nullable(), b: unknownReason.nullable() })
    .nullable()
    .describe("Why a book is not known at t (per side); null when both are."),
  a: quote.describe("Book A's best levels (null when A is unknown)."),
  b: quote.describe("Book B's best levels (null when B is unknown)."),
  gross: byDirection(z.number().nullable())
    .nullable()
    .describe("Top-of-book spread before fees: aToB = B's bid − A's ask (buy on A, sell on B), bToA = A's bid − B's ask. Null when not known."),
  net: byDirection(executableShape).nullable().describe("The executable spread for `size`, both books walked, fees subtracted. Null when not known."),
  best: nullableMoney("The larger net per contract of the two directions (null when neither is complete)."),
  available: byDirection(z.number())
    .nullable()
    .describe("Contracts tradable while each contract's edge after fees stays above minSpread (0 when unset)."),
});
export type SpreadPoint = z.output<typeof spreadPointPublic>;

const feeInForce = z.object({
  known: z.boolean().describe("False when Brier has no schedule for the venue at that instant: the net spread is then unknown, never computed with a zero fee."),
  schedule: z.string().nullable().describe("The schedule version applied (GET /v0/fees lists them)."),
  takerRate: z.string().nullable(),
  exponent: z.number().int().nullable(),
  basis: z.enum(["market", "schedule", "upper_bound"]).nullable().describe("market: read from the market's own fee fields at the venue; schedule: the venue's published schedule (the fallback where the market's fields are missing); upper_bound: the schedule charges this only on some markets of the group and Brier cannot tell which; a spread positive after it is positive after the real fee."),
  note: z.string(),
});

const pairSide = z.object({
  marketId: z.uuid(),
  exchange: z.string(),
  venueMarketId: z.string(),
  title: z.string(),
  category: z.string(),
  outcomeId: z.string().describe("The outcome whose book this side is."),
  outcomeLabel: z.string(),
  fee: feeInForce.describe("The fee model at the window's end."),
  settlement: z
    .object({
      state: z.string().describe("Where the market stands, as its venue said (docs/outcomes.md): open, closed, proposed, disputed, determined, settled, voided, unknown."),
      winningOutcomeId: z.string().nullable(),
      pays: z.number().nullable().describe("What this side's outcome pays per contract (dollars), once the venue stated it; null before."),
      closedAt: z.number().nullable(),
      settledAt: z.number().nullable(),
    })
    .nullable()
    .describe("The market's outcome as Brier recorded it (GET /v0/resolutions); null when none is recorded."),
});

export const pairPublic = z.object({
  a: pairSide,
  b: pairSide,
  relation: z.string().nullable().describe("The stored match of the two markets (A to B), null when they are not matched."),
  confidence: z.number().nullable(),
  pricing: z.enum(["identity", "complement"]).describe("identity: B's outcome is A's Yes; complement: B's outcome is the No of a disjoint market (exact only when the two are true complements)."),
  closed: z
    .object({ aPays: z.number(), bPays: z.number(), difference: z.number().describe("aPays − bPays: what a position long A and short B (aToB's hedge) was paid at the end; 0 when the two settled alike.") })
    .nullable()
    .describe("How the spread closed: both sides' payouts once both venues stated them; null until then."),
});
export type PairPublic = z.output<typeof pairPublic>;

export const spreadsPage = z.object({
  data: z.array(spreadPointPublic),
  meta: z.object({
    pair: pairPublic,
    count: z.number().int(),
    limit: z.number().int(),
    since: z.number().int(),
    until: z.number().int(),
    interval: z.string().nullable(),
    size: z.number(),
    minSpread: z.number().nullable(),
    nextCursor: z.string().nullable().describe("Pass as `cursor` (same other parameters) for the next page; null on the last."),
  }),
});
export type SpreadsPage = z.output<typeof spreadsPage>;

export const episodePublic = z.object({
  direction: z.enum(["aToB", "bToA"]),
  start: z.number().int().describe("First instant the net spread was above the threshold, epoch ms."),
  end: z.number().int().describe("First instant it no longer was (or a book became unknown, or the window ended)."),
  durationMs: z.number().int(),
  endedBy: z.enum(["below_threshold", "unknown", "resolution", "window_end"]),
  peak: money("Highest net spread per contract after fees during the episode, dollars."),
  peakAt: z.number().int(),
  grossAtPeak: money("Top-of-book spread at the peak, before fees."),
  sizeAtPeak: z.number().describe("Contracts tradable at the peak while each contract's edge after fees stayed above the threshold."),
});
export type EpisodePublic = z.output<typeof episodePublic>;

export const episodeDay = z.object({
  day: z.string().describe("UTC day, YYYY-MM-DD."),
  knownMs: z.number().int().describe("Time both books were known that day."),
  knownAMs: z.number().int().describe("Time book A was known that day (the pair page's coverage figures)."),
  knownBMs: z.number().int().describe("Time book B was known that day."),
  episodes: z.number().int().describe("Episodes that started that day."),
  executableMs: z.number().int().describe("Time the net spread was above the threshold (either direction) that day."),
  longestMs: z.number().int(),
  peak: z.number().nullable(),
  sizeAtPeak: z.number().nullable(),
});
export type EpisodeDay = z.output<typeof episodeDay>;

export const episodesResponse = z.object({
  data: z.object({
    episodes: z.array(episodePublic),
    days: z.array(episodeDay),
  }),
  meta: z.object({
    pair: pairPublic,
    since: z.number().int(),
    until: z.number().int(),
    size: z.number(),
    minSpread: z.number(),
    count: z.number().int().describe("Episodes in the window (the list holds at most `limit`)."),
    limit: z.number().int(),
    nextCursor: z.string().nullable().describe("Pass as `cursor` for the episodes after this page; null on the last page."),
  }),
});
export type EpisodesResponse = z.output<typeof episodesResponse>;

export const feeScheduleVersionPublic = z.object({
  venue: z.string(),
  id: z.string(),
  effectiveFrom: z.string(),
  inForce: z.boolean(),
  source: z.string(),
  rounding: z.object({ decimals: z.number().int(), mode: z.enum(["up", "down", "half_up"]), per: z.enum(["order", "fill", "fill_then_balance"]), balanceDecimals: z.number().int().optional() }),
  maker: z.string(),
  rules: z.array(
    z.object({
      kalshiSeries: z.array(z.string()).nullable(),
      categories: z.array(z.string()).nullable(),
      takerRate: z.string(),
      exponent: z.number().int(),
      basis: z.enum(["market", "schedule", "upper_bound"]),
      note: z.string(),
    }),
  ),
});

export const marketFeePublic = z.object({
  venue: z.string(),
  venueMarketId: z.string(),
  inForce: feeInForce.describe("The fee a spread of this market is priced with at `at`."),
  versions: z
    .array(z.object({ from: z.number().nullable().describe("In force from (epoch ms); null: since the market existed."), takerRate: z.string().nullable(), exponent: z.number().int(), note: z.string() }))
    .describe("The market's own fee as read from its venue's fields, oldest first (empty: never read, or its fields were missing)."),
  readAt: z.number().nullable().describe("When the venue's fields were last read (epoch ms)."),
  error: z.string().nullable().describe("Why the last read failed (the earlier versions stay)."),
});

export const feesResponse = z.object({
  data: z.array(feeScheduleVersionPublic).describe("The schedule table: each venue's published versions, the fallback for a market whose own fee fields are missing."),
  meta: z.object({ at: z.number(), market: marketFeePublic.nullable() }),
});
