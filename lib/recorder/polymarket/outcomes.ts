import "server-only";
import type { ResolutionRecord, ResolutionSource, ResolutionState } from "@/lib/outcomes/types";
import type { GammaMarket, PolymarketRest } from "./rest";

/*
 * Polymarket's outcomes, as the venue states them (docs/outcomes.md): Gamma's market fields by REST
 * (`closed`, `closedTime`, `umaResolutionStatus`, `outcomePrices`, `resolutionSource`, `resolvedBy`)
 * and the market channel's `market_resolved` event by push. Never a winner from a trading price:
 * `outcomePrices` is read as a payout only once UMA's status is `resolved`, and only when it is one
 * (each price 0, 0.5 or 1, summing to 1).
 */

/** Gamma's JSON-in-a-string array fields; undefined when absent or not an array of strings. */
function stringArray(text: unknown): string[] | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Gamma's times: ISO 8601, or "YYYY-MM-DD HH:MM:SS+00" (closedTime); undefined when unreadable. */
export function gammaTime(value: unknown): Date | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d/.test(value) ? value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00") : value;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The payout per share of each outcome when the prices are one (0, 0.5 or 1 each, summing to 1). */
function payouts(prices: string[] | undefined, count: number): number[] | undefined {
  if (prices === undefined || prices.length !== count) return undefined;
  const values: number[] = prices.map(Number);
  if (!values.every((v) => v === 0 || v === 0.5 || v === 1)) return undefined;
  return Math.abs(values.reduce((a: number, b: number) => a + b, 0) - 1) < 1e-9 ? values : undefined;
}

const RAW_FIELDS = [
  "id", "conditionId", "closed", "closedTime", "umaResolutionStatus", "umaResolutionStatuses", "umaEndDate",
  "resolvedBy", "resolutionSource", "outcomes", "outcomePrices", "clobTokenIds", "updatedAt",
] as const;

/**
 * One Gamma market → the record of its state, or undefined when it lacks what identifies it (id,
 * condition id, token ids). `proposed` and `disputed` name no winner (UMA's proposal is not stated
 * on the market); `resolved` with a payout vector is `settled` (the winner is the outcome paid 1; a
 * 50-50 names none); `resolved` without one is `determined` with no winner stated.
 */
export function gammaResolution(market: GammaMarket, receivedAt: Date, source: ResolutionSource = "rest"): ResolutionRecord | undefined {
  const outcomeIds = stringArray(market.clobTokenIds);
  if (typeof market.id !== "string" || typeof market.conditionId !== "string" || outcomeIds === undefined || outcomeIds.length === 0) return undefined;
  const uma = typeof market.umaResolutionStatus === "string" ? market.umaResolutionStatus.toLowerCase() : "";
  const closedAt = gammaTime(market.closedTime) ?? null;
  const updatedAt = gammaTime(market.updatedAt);
  let state: ResolutionState;
  let winningOutcomeId: string | null = null;
  let settlementValue: number | null = null;
  if (uma === "resolved") {
    const paid = payouts(stringArray(market.outcomePrices), outcomeIds.length);
    state = paid === undefined ? "determined" : "settled";
    if (paid !== undefined) {
      settlementValue = paid[0] ?? null;
      const winner = paid.indexOf(1);
      winningOutcomeId = winner >= 0 ? (outcomeIds[winner] ?? null) : null;
    }
  } else if (uma === "disputed") state = "disputed";
  else if (uma === "proposed") state = "proposed";
  else if (market.closed === true) state = "closed";
  else if (market.active === true || market.closed === false) state = "open";
  else state = "unknown";
  const raw: Record<string, unknown> = {};
  for (const field of RAW_FIELDS) if (market[field] !== undefined) raw[field] = market[field];
  // Gamma states no time per UMA status: a change is dated by the latest time the market states
  // (`closedTime` is written at resolution; `updatedAt` moves with a proposal or a dispute).
  const latest = [closedAt, updatedAt].reduce<Date | undefined>((a, b) => (b === null || b === undefined ? a : a === undefined || b > a ? b : a), undefined);
  const venueTime = state === "closed" ? (closedAt ?? updatedAt ?? receivedAt) : (latest ?? receivedAt);
  const resolutionSource = typeof market.resolutionSource === "string" && market.resolutionSource !== "" ? market.resolutionSource : null;
  return {
    venue: "polymarket",
    venueMarketId: market.id,
    market: market.conditionId,
    outcomeIds,
    state,
    venueState: uma !== "" ? uma : market.closed === true ? "closed" : market.active === true ? "active" : null,
    winningOutcomeId,
    settlementValue,
    closedAt: state === "open" ? null : closedAt,
    ...(state === "settled" ? { settledAt: closedAt ?? venueTime } : {}),
    venueTime,
    receivedAt,
    source,
    resolutionSource,
    raw: JSON.stringify(raw),
  };
}

/** The market channel's `market_resolved` event (sent to subscriptions with `custom_feature_enabled: true`). */
export interface MarketResolvedEvent {
  event_type: "market_resolved";
  /** The Gamma market id. */
  id?: string;
  /** The condition id. */
  market?: string;
  assets_ids?: string[];
  winning_asset_id?: string;
  winning_outcome?: string;
  /** Epoch ms, as text. */
  timestamp?: string | number;
  [field: string]: unknown;
}

/**
 * A `market_resolved` event → the record of its settlement: the winner the venue named, paid 1 per
 * share (the first outcome's payout is 1 when it won, else 0). Undefined when the event lacks the
 * market, its outcome ids, the winner, or the Gamma id (`knownVenueMarketId`: the catalog's, looked
 * up by condition id, for an event that does not carry it).
 */
export function marketResolvedRecord(event: MarketResolvedEvent, receivedAt: Date, knownVenueMarketId?: string): ResolutionRecord | undefined {
  const { market, assets_ids: outcomeIds, winning_asset_id: winner } = event;
  if (typeof market !== "string" || !Array.isArray(outcomeIds) || outcomeIds.length === 0 || typeof winner !== "string" || !outcomeIds.includes(winner)) return undefined;
  const venueMarketId = typeof event.id === "string" && event.id !== "" ? event.id : knownVenueMarketId;
  if (venueMarketId === undefined) return undefined;
  const ms = Number(event.timestamp);
  const venueTime = Number.isFinite(ms) && ms > 0 ? new Date(ms) : receivedAt;
  return {
    venue: "polymarket",
    venueMarketId,
    market,
    outcomeIds,
    state: "settled",
    venueState: "resolved",
    winningOutcomeId: winner,
    settlementValue: outcomeIds[0] === winner ? 1 : 0,
    closedAt: null,
    settledAt: venueTime,
    venueTime,
    receivedAt,
    source: "push",
    resolutionSource: null,
    raw: JSON.stringify(event),
  };
}

/**
 * The REST sweep: Gamma's closed markets (`closed=true`), each page's markets handed to `record`
 * as records. The first sweep reads them all; an incremental one (`closedSince`) reads them newest
 * closed first and stops after the first page that holds no market closed since. Returns the
 * markets read.
 */
export async function sweepPolymarketOutcomes(rest: PolymarketRest, record: (records: ResolutionRecord[]) => Promise<unknown>, closedSince?: Date): Promise<number> {
  let read = 0;
  const query = closedSince === undefined ? { closed: true } : { closed: true, order: "closedTime", ascending: false };
  for await (const page of rest.marketPages(query)) {
    const receivedAt = new Date();
    read += page.length;
    const records = page.flatMap((market) => gammaResolution(market, receivedAt) ?? []);
    if (records.length > 0) await record(records);
    if (closedSince !== undefined && !records.some((r) => r.closedAt === null || r.closedAt >= closedSince)) break;
  }
  return read;
}
