import "server-only";
import type { ResolutionRecord, ResolutionSource, ResolutionState } from "@/lib/outcomes/types";
import { NO_SUFFIX } from "./normalize";
import type { KalshiMarket, KalshiRest } from "./rest";

/*
 * Kalshi's outcomes, as the venue states them (docs/outcomes.md): a market's `status`, `result`,
 * `settlement_value_dollars`, `settlement_ts`, `close_time` by REST (`/markets`, and
 * `/historical/markets` for markets settled before the live window), and the
 * `market_lifecycle_v2` channel's `determined` and `settled` events by push. An `amended` market
 * (re-determined after a dispute) is `determined` with `venueState: "amended"` and its new result.
 */

/** Kalshi's REST `status` → the state; `finalized` is `settled` (or `voided` when the result says void). */
const STATUS: Record<string, ResolutionState> = {
  initialized: "open",
  active: "open",
  inactive: "open",
  closed: "closed",
  determined: "determined",
  disputed: "disputed",
  amended: "determined",
  finalized: "settled",
  settled: "settled",
};

function time(value: unknown): Date | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return new Date(value * 1000);
  if (typeof value !== "string" || value === "") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function dollars(value: unknown): number | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  if (value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

/**
 * The winner and the YES payout of a result: `yes` names the YES outcome (the ticker), `no` the NO
 * outcome (`TICKER-NO`); the payout is the venue's `settlement_value` when it sends one, else 1 or
 * 0 for a yes/no result; `scalar` names no winner, its payout is the venue's value.
 */
function resultOf(ticker: string, result: string, value: number | undefined): { winner: string | null; value: number | null } {
  if (result === "yes") return { winner: ticker, value: value ?? 1 };
  if (result === "no") return { winner: `${ticker}${NO_SUFFIX}`, value: value ?? 0 };
  if (result === "scalar") return { winner: null, value: value ?? null };
  return { winner: null, value: null };
}

/** A Kalshi market's ids: the ticker is the catalog id and the books key; its outcomes are the ticker (YES) and ticker-NO. */
function identity(ticker: string) {
  return { venue: "kalshi", venueMarketId: ticker, market: ticker, outcomeIds: [ticker, `${ticker}${NO_SUFFIX}`] };
}

const RAW_FIELDS = [
  "ticker", "event_ticker", "status", "result", "settlement_value_dollars", "settlement_ts", "expiration_value", "close_time",
  "expected_expiration_time", "latest_expiration_time", "settlement_timer_seconds", "updated_time",
] as const;

/** One Kalshi market (REST) → the record of its state; undefined without a ticker or a known status. */
export function kalshiResolution(market: KalshiMarket, receivedAt: Date, source: ResolutionSource = "rest"): ResolutionRecord | undefined {
  const ticker = market.ticker;
  const status = typeof market.status === "string" ? market.status.toLowerCase() : "";
  if (typeof ticker !== "string" || ticker === "") return undefined;
  const result = typeof market.result === "string" ? market.result.toLowerCase() : "";
  let state: ResolutionState = STATUS[status] ?? "unknown";
  if (result === "void") state = "voided";
  const stated = state === "determined" || state === "settled";
  const { winner, value } = stated ? resultOf(ticker, result, dollars(market.settlement_value_dollars)) : { winner: null, value: null };
  const closedAt = state === "open" || state === "unknown" ? null : (time(market.close_time) ?? null);
  const settledAt = time(market.settlement_ts);
  const venueTime = (state === "settled" || state === "voided" ? settledAt : undefined) ?? time(market.updated_time) ?? closedAt ?? receivedAt;
  const raw: Record<string, unknown> = {};
  for (const field of RAW_FIELDS) if (market[field] !== undefined) raw[field] = market[field];
  return {
    ...identity(ticker),
    state,
    venueState: status === "" ? null : status,
    winningOutcomeId: winner,
    settlementValue: value,
    closedAt,
    ...(state === "settled" && settledAt !== undefined ? { settledAt } : {}),
    venueTime,
    receivedAt,
    source,
    resolutionSource: null,
    raw: JSON.stringify(raw),
  };
}

/** A `market_lifecycle_v2` message (`msg` of the envelope). */
export interface KalshiLifecycleMessage {
  market_ticker?: string;
  /** created, activated, deactivated, close_date_updated, determined, settled, … */
  event_type?: string;
  open_ts?: number;
  close_ts?: number;
  result?: string;
  determination_ts?: number;
  /** The YES payout, dollars. */
  settlement_value?: string | number;
  settled_ts?: number;
  [field: string]: unknown;
}

/**
 * A lifecycle message → a record for `determined` and `settled` events (the others change no
 * outcome: opening, pausing, a new close date of a market still open); undefined otherwise.
 */
export function lifecycleRecord(msg: KalshiLifecycleMessage, receivedAt: Date): ResolutionRecord | undefined {
  const ticker = msg.market_ticker;
  const type = msg.event_type;
  if (typeof ticker !== "string" || ticker === "" || (type !== "determined" && type !== "settled")) return undefined;
  const result = typeof msg.result === "string" ? msg.result.toLowerCase() : "";
  const voided = result === "void";
  const { winner, value } = voided ? { winner: null, value: null } : resultOf(ticker, result, dollars(msg.settlement_value));
  const determinedAt = time(msg.determination_ts);
  const settledAt = time(msg.settled_ts);
  const venueTime = (type === "settled" ? settledAt : determinedAt) ?? receivedAt;
  const state: ResolutionState = voided ? "voided" : type === "settled" ? "settled" : "determined";
  return {
    ...identity(ticker),
    state,
    venueState: type === "settled" ? "finalized" : "determined",
    winningOutcomeId: winner,
    settlementValue: value,
    closedAt: time(msg.close_ts) ?? null,
    ...(determinedAt !== undefined ? { determinedAt } : {}),
    ...(settledAt !== undefined ? { settledAt } : {}),
    venueTime,
    receivedAt,
    source: "push",
    resolutionSource: null,
    raw: JSON.stringify(msg),
  };
}

/**
 * The REST sweep: Kalshi's closed and settled markets (`/markets?status=closed|settled`, which
 * include determined, disputed and amended ones), then the settled markets older than the live
 * window (`/historical/markets`) unless `historical` is false. `minCloseTs` (epoch s) narrows an
 * incremental sweep of the live listing to markets that closed since. Returns the markets read.
 */
export async function sweepKalshiOutcomes(
  rest: KalshiRest,
  record: (records: ResolutionRecord[]) => Promise<unknown>,
  options: { minCloseTs?: number; historical?: boolean } = {},
): Promise<number> {
  let read = 0;
  const pages = async (path: "/markets" | "/historical/markets", query: Record<string, string | number | undefined>, source: ResolutionSource) => {
    for await (const page of rest.marketPages(path, query)) {
      const receivedAt = new Date();
      read += page.length;
      const records = page.flatMap((market) => kalshiResolution(market, receivedAt, source) ?? []);
      if (records.length > 0) await record(records);
    }
  };
  for (const status of ["closed", "settled"]) await pages("/markets", { status, min_close_ts: options.minCloseTs }, "rest");
  // The historical listing takes no close-time filter: it is read whole, once, at the first sweep.
  if (options.historical !== false) await pages("/historical/markets", {}, "historical");
  return read;
}
