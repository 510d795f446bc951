import { z } from "zod";
import { cursorParam } from "@/lib/input";
import { incidentKinds } from "@/lib/recorder/journal";
import { boundedInt, conditionIdParam, instant, outcomeIdParam } from "./params";

/**
 * The history endpoints' request and response shapes: one source of truth for validation (routes
 * parse the query string into these typed queries through lib/input.ts), for the public JSON
 * (answers are parsed through the output shapes before they leave) and for GET /v0/openapi.json.
 */

export const HISTORY_MAX_LIMIT = 1000;
export const HISTORY_DEFAULT_LIMIT = 100;
export const MAX_DEPTH = 1000;
export const HISTORY_DEFAULT_DEPTH = 50;
export const TRADES_MAX_LIMIT = 1000;
export const MAX_SPARKLINE_MARKETS = 100;

export const historyIntervals = { "1m": 60_000, "5m": 300_000, "1h": 3_600_000 } as const;

// ---- queries ----

export const orderBookQuery = z
  .object({
    at: instant.optional().describe("The instant (ISO 8601 with zone, or epoch ms); default now. Venue event time, UTC."),
    depth: boundedInt(MAX_DEPTH, MAX_DEPTH).describe(`Levels per side, best first (1–${MAX_DEPTH}, default all up to ${MAX_DEPTH}).`),
  })
  .strict();
export type OrderBookQuery = z.output<typeof orderBookQuery>;

export const orderBookHistoryQuery = z
  .object({
    since: instant.describe("Start of the window, ISO 8601 or epoch ms. Required. The first page starts at the first grid point at or after the first book recorded at or after it."),
    until: instant.optional().describe("Last instant of the grid (inclusive); default now."),
    interval: z.enum(["1m", "5m", "1h"]).optional().transform((value) => value ?? "1m").describe("Grid step: 1m (default), 5m or 1h."),
    limit: boundedInt(HISTORY_MAX_LIMIT, HISTORY_DEFAULT_LIMIT).describe(`Snapshots per call (1–${HISTORY_MAX_LIMIT}, default ${HISTORY_DEFAULT_LIMIT}).`),
    depth: boundedInt(MAX_DEPTH, HISTORY_DEFAULT_DEPTH).describe(`Levels per side per snapshot (1–${MAX_DEPTH}, default ${HISTORY_DEFAULT_DEPTH}).`),
    cursor: cursorParam(z.tuple([z.literal("h"), z.number().int().positive()]))
      .optional()
      .describe("nextCursor of the previous page (same since/until/interval)."),
  })
  .strict();
export type OrderBookHistoryQuery = z.output<typeof orderBookHistoryQuery>;

export const tradesQuery = z
  .object({
    since: instant.optional().describe("Oldest trade time (inclusive), ISO 8601 or epoch ms; default 7 days before until."),
    until: instant.optional().describe("Newest trade time (inclusive); default now."),
    limit: boundedInt(TRADES_MAX_LIMIT, 100).describe(`Trades per call (1–${TRADES_MAX_LIMIT}, default 100).`),
    cursor: cursorParam(z.tuple([z.literal("t"), z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]))
      .optional()
      .describe("nextCursor of the previous page (same since/until)."),
  })
  .strict();
export type TradesQuery = z.output<typeof tradesQuery>;

export const marketPricesQuery = z
  .object({
    interval: z.enum(["1h", "1d"]).optional().transform((value) => value ?? "1h").describe("Bucket: 1h (default; at most 31 days a call) or 1d (at most 366 days)."),
    since: instant.optional().describe("Start, ISO 8601 or epoch ms, rounded down to its bucket (whole UTC hours or days); default 7 days (1h) or 90 days (1d) before until."),
    until: instant.optional().describe("End (exclusive), ISO 8601 or epoch ms; default now."),
  })
  .strict();
export type MarketPricesQuery = z.output<typeof marketPricesQuery>;

export const sparklinesQuery = z
  .object({
    marketIds: z
      .string()
      .max(MAX_SPARKLINE_MARKETS * 37)
      .transform((text) => [...new Set(text.split(",").map((part) => part.trim().toLowerCase()).filter((part) => part !== ""))])
      .pipe(z.array(z.uuid("marketIds: every id must be a catalog market UUID")).min(1, "marketIds: at least one id").max(MAX_SPARKLINE_MARKETS, `marketIds: at most ${MAX_SPARKLINE_MARKETS} ids`))
      .describe(`Comma-separated catalog market UUIDs (at most ${MAX_SPARKLINE_MARKETS}).`),
  })
  .strict();
export type SparklinesQuery = z.output<typeof sparklinesQuery>;

export const coverageQuery = z
  .object({
    market: conditionIdParam.optional().describe("Condition id (0x…): every outcome of the market. Give market or outcomeId."),
    outcomeId: outcomeIdParam.optional().describe("One outcome (CLOB token id). Give market or outcomeId."),
    since: instant.optional().describe("First hour (rounded down to the hour), ISO 8601 or epoch ms; default 24 hours before until."),
    until: instant.optional().describe("End (exclusive); default now. At most 31 days after since."),
  })
  .strict();
export type CoverageQuery = z.output<typeof coverageQuery>;

export const incidentsQuery = z
  .object({
    since: instant.optional().describe("Oldest incident start (inclusive), ISO 8601 or epoch ms; default 7 days before until."),
    until: instant.optional().describe("Newest incident start (exclusive); default now."),
    kind: z.enum(incidentKinds).optional().describe(`One kind: ${incidentKinds.join(", ")}.`),
    limit: boundedInt(1000, 100).describe("Incidents per call (1–1000, default 100)."),
    cursor: cursorParam(z.tuple([z.literal("i"), z.number().int().positive(), z.uuid()]))
      .optional()
      .describe("nextCursor of the previous page (same since/until/kind)."),
  })
  .strict();
export type IncidentsQuery = z.output<typeof incidentsQuery>;


// ---- answers ----

const epochMs = (description: string) => z.number().int().describe(description);
export const condition = z.enum(["available", "degraded", "missing", "synthetic"]);
const nextCursor = z.string().nullable().describe("Pass as `cursor` (with the same window) for the next page; null on the last.");

const bookLevel = z.object({ price: z.number(), size: z.number() });

export const recordedBookPublic = z.object({
  outcomeId: z.string().describe("The outcome (CLOB token id, = asset_id in /v0/sql)."),
  market: z.string().describe("Condition id (`market` in /v0/sql)."),
  at: epochMs("The instant asked for (a grid point in history), epoch ms."),
  timestamp: epochMs("Venue time of the last event applied, epoch ms."),
  snapshotTimestamp: epochMs("Venue time of the `book` snapshot the rebuild started from, epoch ms."),
  bids: z.array(bookLevel).describe("Best (highest) first."),
  asks: z.array(bookLevel).describe("Best (lowest) first."),
  hash: z.string().nullable().describe("The venue's hash of the last event applied."),
  tickSize: z.string().nullable(),
  inSync: z.boolean().describe("False when a change after the snapshot disagreed with the venue's stated best prices (a lost frame): see docs/history.md."),
  source: z.literal("recorded"),
});
export type RecordedBook = z.output<typeof recordedBookPublic>;

export const recordedBookResponse = z.object({ data: recordedBookPublic });

export const bookHistoryPage = z.object({
  data: z.array(recordedBookPublic),
  meta: z.object({
    count: z.number().int(),
    limit: z.number().int(),
    interval: z.enum(["1m", "5m", "1h"]),
    since: epochMs("The window's start as asked, epoch ms."),
    until: epochMs("The window's end (inclusive), epoch ms."),
    nextCursor,
  }),
});
export type BookHistoryPage = z.output<typeof bookHistoryPage>;

export const recordedTradePublic = z.object({
  id: z.string().describe("The venue's transaction hash (empty when it sent none)."),
  timestamp: epochMs("Venue time, epoch ms."),
  price: z.number(),
  amount: z.number(),
  side: z.enum(["buy", "sell", "unknown"]),
  feeRateBps: z.number().nullable(),
});
export type RecordedTrade = z.output<typeof recordedTradePublic>;

export const tradesPage = z.object({
  data: z.array(recordedTradePublic),
  meta: z.object({ count: z.number().int(), limit: z.number().int(), outcomeId: z.string(), market: z.string().describe("Condition id."), nextCursor }),
});

export const priceCandle = z.object({
  time: epochMs("Bucket start, epoch ms, UTC."),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  snapshots: z.number().int().describe("Snapshots in the bucket."),
  volume24h: z.number().nullable().describe("The market's 24h volume at the bucket's last snapshot, when the venue gives it."),
});
export type PriceCandle = z.output<typeof priceCandle>;

export const marketPricesResponse = z.object({
  data: z.object({
    marketId: z.string(),
    venue: z.string(),
    interval: z.enum(["1h", "1d"]),
    since: epochMs("Start of the window, epoch ms."),
    until: epochMs("End of the window (exclusive), epoch ms."),
    outcomes: z.array(z.object({ outcomeId: z.string(), label: z.string(), candles: z.array(priceCandle).describe("Oldest first; a bucket without a snapshot is absent.") })),
  }),
});
export type MarketPrices = z.output<typeof marketPricesResponse>["data"];

export const sparklinesResponse = z.object({
  data: z.array(
    z.object({
      marketId: z.string(),
      outcomeId: z.string(),
      points: z.array(z.tuple([z.number(), z.number()])).describe("Hourly closes over the last 7 days, oldest first: [epoch ms, price]."),
    }),
  ),
});
export type Sparkline = z.output<typeof sparklinesResponse>["data"][number];

export const assetCoveragePublic = z.object({
  outcomeId: z.string(),
  label: z.string().nullable(),
  firstEvent: z.number().int().nullable().describe("Venue time of the asset's first recorded event (any time), epoch ms."),
  lastEvent: z.number().int().nullable().describe("Venue time of the asset's last recorded event (any time), epoch ms."),
  rowsByType: z.object({ book: z.number().int(), price_change: z.number().int(), last_trade_price: z.number().int() }).describe("Recorded rows by event type (any time)."),
  hours: z.array(
    z.object({
      hour: epochMs("Hour start, epoch ms (UTC)."),
      condition,
      recorded: z.number().describe("Share of the hour the asset was recorded, 0..1."),
      rows: z.number().int(),
      incidents: z.number().int(),
    }),
  ),
  gaps: z.array(z.object({ start: z.number().int(), end: z.number().int(), reason: z.enum(["recorder_down", "not_subscribed", "connection_lost", "synthetic"]) })),
});
export type AssetCoverage = z.output<typeof assetCoveragePublic>;

export const coverageResponse = z.object({
  data: z.object({ market: z.string(), since: z.number().int(), until: z.number().int(), assets: z.array(assetCoveragePublic) }),
});

export const incidentPublic = z.object({
  id: z.string(),
  runId: z.string().describe("The recorder run (process) it happened to."),
  kind: z.string(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  durationMs: z.number().int().nullable().describe("Span length in ms (a lost connection: the gap until resubscribed); null for instants and open spans."),
  degrading: z.boolean().describe("True for kinds that make an hour degraded."),
  assets: z.array(z.string()).describe("Assets touched (at most 50 listed); empty: every recorded asset."),
  message: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type IncidentPublic = z.output<typeof incidentPublic>;

export const incidentsPage = z.object({
  data: z.array(incidentPublic),
  meta: z.object({ count: z.number().int(), limit: z.number().int(), nextCursor }),
});
