import { z } from "zod";
import { categories } from "@/lib/catalog/categories";
import { exchangeKeys } from "@/lib/catalog/venues";
import { boundedInt, instant } from "@/lib/history/params";
import { cursorParam } from "@/lib/input";

/**
 * GET /v0/calibration and /v0/calibration/markets: the request and answer shapes (docs/calibration.md).
 * Routes parse the query string into these through lib/input.ts; answers are parsed through the
 * output shapes before they leave; lib/calibration/openapi.ts is derived from the same shapes.
 */

export const DEFAULT_HORIZONS = ["1h", "1d", "7d", "30d"] as const;
export const MAX_HORIZONS = 8;
export const MAX_HORIZON_MS = 365 * 86_400_000;
export const DEFAULT_BINS = 10;
export const MAX_BINS = 50;
export const DEFAULT_WINDOW_MS = 365 * 86_400_000;
export const MARKETS_MAX_LIMIT = 500;
/** Forecast sources: the recorded book of the Yes outcome, else the catalog's price history. */
export const forecastSources = ["book", "catalog"] as const;
export type ForecastSource = (typeof forecastSources)[number];

const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A horizon such as `1h`, `1d`, `7d`, `30d`: minutes, hours or days before the close. */
export interface Horizon {
  label: string;
  ms: number;
}

export function parseHorizon(text: string): Horizon | undefined {
  const match = /^(\d{1,6})([mhd])$/.exec(text);
  if (match === null) return undefined;
  const ms = Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
  if (ms < 60_000 || ms > MAX_HORIZON_MS) return undefined;
  return { label: text, ms };
}

const horizonList = z
  .string()
  .max(200)
  .optional()
  .transform((raw, ctx): Horizon[] => {
    const texts = raw === undefined || raw === "" ? [...DEFAULT_HORIZONS] : raw.split(",").map((s) => s.trim());
    const out = new Map<number, Horizon>();
    for (const text of texts) {
      const horizon = parseHorizon(text);
      if (horizon === undefined) {
        ctx.addIssue({ code: "custom", message: `horizon "${text.slice(0, 20)}" is not a duration such as 1h, 1d, 7d, 30d (minutes m, hours h or days d; from 1m to 365d)` });
        return z.NEVER;
      }
      if (!out.has(horizon.ms)) out.set(horizon.ms, horizon);
    }
    if (out.size > MAX_HORIZONS) {
      ctx.addIssue({ code: "custom", message: `horizon lists at most ${MAX_HORIZONS} durations` });
      return z.NEVER;
    }
    return [...out.values()].sort((a, b) => a.ms - b.ms);
  })
  .describe(`Comma-separated durations before each market's close at which its price is taken as the forecast (m, h or d; 1m to 365d; at most ${MAX_HORIZONS}); default ${DEFAULT_HORIZONS.join(",")}.`);

const venueList = z
  .string()
  .max(400)
  .optional()
  .transform((raw, ctx): string[] | undefined => {
    if (raw === undefined || raw === "") return undefined;
    const venues = [...new Set(raw.split(",").map((s) => s.trim()))];
    for (const venue of venues) {
      if (!exchangeKeys.includes(venue)) {
        ctx.addIssue({ code: "custom", message: `venue "${venue.slice(0, 40)}" is not a venue; one or more of: ${exchangeKeys.join(", ")}` });
        return z.NEVER;
      }
    }
    return venues.sort();
  })
  .describe("Comma-separated venues (pmxt-core exchange keys); default every venue with resolved markets.");

const category = z
  .enum(categories, `must be one of: ${categories.join(", ")}`)
  .optional()
  .describe(`Only markets of this catalog category: ${categories.join(", ")}.`);

const windowFields = {
  venue: venueList,
  category,
  horizon: horizonList,
  since: instant.optional().describe("Markets that closed at or after this instant (ISO 8601 with zone, or epoch ms); default 365 days before until."),
  until: instant.optional().describe("Markets that closed before this instant; default now."),
  bins: boundedInt(MAX_BINS, DEFAULT_BINS)
    .refine((value) => value >= 2, "must be at least 2")
    .describe(`Reliability bins of equal width over [0, 1] (2–${MAX_BINS}, default ${DEFAULT_BINS}).`),
};

export const calibrationQuery = z.object(windowFields).strict();
export type CalibrationQuery = z.output<typeof calibrationQuery>;

export const calibrationMarketsQuery = z
  .object({
    ...windowFields,
    venue: z
      .string()
      .refine((value) => exchangeKeys.includes(value), `must be one venue: ${exchangeKeys.join(", ")}`)
      .describe("The venue (one pmxt-core exchange key). Required."),
    horizon: z
      .string()
      .transform((raw, ctx): Horizon => {
        const horizon = parseHorizon(raw);
        if (horizon === undefined) {
          ctx.addIssue({ code: "custom", message: "must be one duration such as 1h, 1d, 7d, 30d (1m to 365d)" });
          return z.NEVER;
        }
        return horizon;
      })
      .describe("The one horizon the forecasts are taken at. Required."),
    bin: z
      .string()
      .regex(/^\d{1,2}$/, "must be a bin index (0 to bins - 1)")
      .transform(Number)
      .optional()
      .describe("Only forecasts in this reliability bin (0-based, of `bins`)."),
    source: z.enum(forecastSources, `must be one of: ${forecastSources.join(", ")}`).optional().describe("Only forecasts from this source: book or catalog."),
    limit: boundedInt(MARKETS_MAX_LIMIT, 100).describe(`Markets per call (1–${MARKETS_MAX_LIMIT}, default 100), oldest close first.`),
    cursor: cursorParam(z.tuple([z.literal("c"), z.number().int().nonnegative(), z.string().max(300)]))
      .optional()
      .describe("nextCursor of the previous page (same other parameters)."),
  })
  .strict()
  .refine((q) => q.bin === undefined || q.bin < q.bins, { message: "bin must be below bins", path: ["bin"] });
export type CalibrationMarketsQuery = z.output<typeof calibrationMarketsQuery>;

// ---- answers ----

const nullableNumber = z.number().nullable();

export const reliabilityBinPublic = z.object({
  bin: z.number().int().describe("Bin index, 0-based."),
  lower: z.number().describe("Lower edge of the bin's forecasts (inclusive)."),
  upper: z.number().describe("Upper edge (exclusive; the last bin includes 1)."),
  count: z.number().int().describe("Forecasts in the bin."),
  meanForecast: nullableNumber.describe("Mean forecast of the bin's markets."),
  observedFrequency: nullableNumber.describe("Share that resolved Yes (a 50-50 split counts as one half)."),
  wilsonLow: nullableNumber.describe("Wilson 95 % interval of the observed frequency, lower end."),
  wilsonHigh: nullableNumber.describe("Upper end."),
});

const scoresShape = {
  count: z.number().int().describe("Markets scored."),
  brier: nullableNumber.describe("Mean squared error of the forecast against the outcome (0 best, 1 worst)."),
  logLoss: nullableNumber.describe("Mean log loss, forecasts clipped to [0.001, 0.999]."),
  meanForecast: nullableNumber,
  observedFrequency: nullableNumber,
};

export const calibrationFigure = z.object({
  venue: z.string(),
  horizon: z.string().describe("The horizon as asked (1h, 1d, ...)."),
  horizonMs: z.number().int(),
  ...scoresShape,
  sources: z
    .object({ book: z.number().int(), catalog: z.number().int() })
    .describe("How many forecasts came from the recorded book's mid (book) and from the catalog's price history (catalog)."),
  taker: z
    .object({ count: z.number().int(), brier: nullableNumber, logLoss: nullableNumber })
    .describe("Over the book-sourced forecasts: the same scores with the price a taker buying Yes would pay (the best ask) as the forecast."),
  unscored: z.number().int().describe("Resolved markets with no price at or before the horizon (not yet listed, or never priced): left out."),
  bins: z.array(reliabilityBinPublic),
});
export type CalibrationFigure = z.output<typeof calibrationFigure>;

export const headToHeadPublic = z.object({
  venueA: z.string(),
  venueB: z.string(),
  horizon: z.string(),
  horizonMs: z.number().int(),
  pairs: z.number().int().describe("Identity pairs whose two markets both resolved the same way and both had a forecast at this horizon."),
  brierA: nullableNumber.describe("venueA's Brier score on those questions."),
  brierB: nullableNumber.describe("venueB's Brier score on the same questions."),
  marketIds: z.array(z.tuple([z.uuid(), z.uuid()])).describe("The pairs behind the figures: catalog ids of A's and B's market."),
});
export type HeadToHeadPublic = z.output<typeof headToHeadPublic>;

export const calibrationResponse = z.object({
  data: z.array(calibrationFigure).describe("One figure per venue and horizon."),
  headToHead: z.array(headToHeadPublic).describe("Per pair of venues and horizon: both venues' Brier scores on the identity pairs both of whose markets resolved."),
  meta: z.object({
    since: z.string(),
    until: z.string(),
    bins: z.number().int(),
    horizons: z.array(z.string()),
    category: z.string().nullable(),
    venues: z.array(z.string()).describe("The venues scored."),
    logLossEpsilon: z.number().describe("Forecasts are clipped to [ε, 1 − ε] for log loss."),
    disagreedPairs: z.number().int().describe("Identity pairs in the window whose two markets resolved differently (proven false identities), left out of headToHead."),
  }),
});
export type CalibrationResponse = z.output<typeof calibrationResponse>;

export const calibrationMarketPublic = z.object({
  marketId: z.uuid().describe("Catalog market id."),
  venue: z.string(),
  venueMarketId: z.string(),
  title: z.string().nullable(),
  closedAt: z.string().describe("When trading closed (the venue's word)."),
  forecastAt: z.string().describe("The instant the forecast was taken at: closedAt minus the horizon."),
  pricedAt: z.string().describe("When the price used was observed (at or before forecastAt)."),
  source: z.enum(forecastSources),
  forecast: z.number().describe("The Yes price used: the book's mid, or the catalog price."),
  takerPrice: nullableNumber.describe("Book-sourced: the best Yes ask at that instant."),
  outcome: z.number().describe("What Yes settled at: 1, 0, or a split's value."),
  bin: z.number().int(),
});
export type CalibrationMarketPublic = z.output<typeof calibrationMarketPublic>;

export const calibrationMarketsResponse = z.object({
  data: z.array(calibrationMarketPublic),
  meta: z.object({ count: z.number().int(), limit: z.number().int(), nextCursor: z.string().nullable() }),
});
export type CalibrationMarketsResponse = z.output<typeof calibrationMarketsResponse>;
