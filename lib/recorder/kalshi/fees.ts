import { decimalText, FeeFieldsMissing, record } from "../fee-fields";

/**
 * Kalshi's fee of one market over time, read from the venue's own fields (docs/spreads.md,
 * "Fees"): the series' `fee_type` and `fee_multiplier` (`GET /series/{ticker}`), the series' fee
 * history (`GET /series/fee_changes`, each change with its `scheduled_ts`), the event's fee
 * overrides (`GET /events/fee_changes`, paged; a null override clears it) and the market's
 * `fee_waiver_expiration_time` (`GET /markets/{ticker}`). Kalshi's fee types `quadratic` and
 * `quadratic_with_maker_fees` charge takers `fee_multiplier × 0.07 × C × P × (1 − P)` (the
 * general trading fee of Kalshi's fee schedule, scaled by the series' multiplier); another fee
 * type is not priced (its version says so).
 *
 * Pure functions over the venue's wire shapes, and a reader over the caller's `get` (a Kalshi
 * REST client), tested against a loopback fake.
 */

/** The general taker coefficient of Kalshi's fee schedule (0.07 × C × P × (1 − P)). */
export const KALSHI_TAKER_COEFFICIENT = "0.07";
const PRICED_TYPES = new Set(["quadratic", "quadratic_with_maker_fees"]);

/** One dated version of a market's fee: in force from `from` (epoch ms) until the next version. */
export interface KalshiFeeVersion {
  from: number;
  feeType: string;
  multiplier: string;
  /** What set it: the series, a series fee change, an event override, or the market's fee waiver. */
  source: "series" | "series_fee_change" | "event_override" | "fee_waiver";
  /** The taker rate (0.07 × multiplier, exact decimal), or null where the fee type is not one Brier prices. */
  takerRate: string | null;
}

export interface KalshiSeriesFee {
  feeType: string;
  multiplier: string;
}

export interface KalshiFeeChange {
  at: number;
  feeType: string | null;
  multiplier: string | null;
}

const instant = (value: unknown): number | undefined => {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const ms = typeof value === "number" ? value * (value < 1e12 ? 1000 : 1) : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/** `0.07 × multiplier` as an exact decimal string. */
export function takerRateOf(feeType: string, multiplier: string): string | null {
  if (!PRICED_TYPES.has(feeType)) return null;
  const [whole = "0", fraction = ""] = multiplier.split(".");
  const units = BigInt(`${whole}${fraction}`) * 7n;
  const decimals = fraction.length + 2;
  const text = units.toString().padStart(decimals + 1, "0");
  const out = `${text.slice(0, -decimals)}.${text.slice(-decimals)}`.replace(/0+$/, "").replace(/\.$/, "");
  return out === "" ? "0" : out;
}

/** The series' current fee (`GET /series/{ticker}` → `series`). */
export function parseSeriesFee(body: unknown): KalshiSeriesFee {
  const series = record(record(body)?.series) ?? record(body);
  const feeType = typeof series?.fee_type === "string" ? series.fee_type : undefined;
  const multiplier = decimalText(series?.fee_multiplier);
  if (feeType === undefined || multiplier === undefined) throw new FeeFieldsMissing("series without fee_type or fee_multiplier");
  return { feeType, multiplier };
}

/** The series' fee changes (`GET /series/fee_changes` → `series_fee_change_arr`) of one series, oldest first. */
export function parseSeriesFeeChanges(body: unknown, seriesTicker: string): KalshiFeeChange[] {
  const rows = record(body)?.series_fee_change_arr;
  if (!Array.isArray(rows)) throw new FeeFieldsMissing("no series_fee_change_arr");
  const out: KalshiFeeChange[] = [];
  for (const row of rows) {
    const r = record(row);
    if (r?.series_ticker !== seriesTicker) continue;
    const at = instant(r.scheduled_ts);
    const feeType = typeof r.fee_type === "string" ? r.fee_type : undefined;
    const multiplier = decimalText(r.fee_multiplier);
    if (at === undefined || feeType === undefined || multiplier === undefined) throw new FeeFieldsMissing(`series fee change of ${seriesTicker} without scheduled_ts, fee_type or fee_multiplier`);
    out.push({ at, feeType, multiplier });
  }
  return out.sort((x, y) => x.at - y.at);
}

/** One page of the event's fee overrides (`GET /events/fee_changes` → `event_fee_changes`, `cursor`); a null override clears it. */
export function parseEventFeeChanges(body: unknown, eventTicker: string): { changes: KalshiFeeChange[]; cursor: string | null } {
  const b = record(body);
  const rows = b?.event_fee_changes;
  if (!Array.isArray(rows)) throw new FeeFieldsMissing("no event_fee_changes");
  const changes: KalshiFeeChange[] = [];
  for (const row of rows) {
    const r = record(row);
    if (r?.event_ticker !== eventTicker) continue;
    const at = instant(r.scheduled_ts);
    if (at === undefined) throw new FeeFieldsMissing(`event fee change of ${eventTicker} without scheduled_ts`);
    const feeType = typeof r.fee_type_override === "string" ? r.fee_type_override : null;
    const multiplier = r.fee_multiplier_override === null || r.fee_multiplier_override === undefined ? null : (decimalText(r.fee_multiplier_override) ?? null);
    changes.push({ at, feeType, multiplier });
  }
  const cursor = typeof b?.cursor === "string" && b.cursor !== "" ? b.cursor : null;
  return { changes, cursor };
}

/** The market's fee waiver (`GET /markets/{ticker}` → `market.fee_waiver_expiration_time`), epoch ms, or null. */
export function parseFeeWaiver(body: unknown): number | null {
  const market = record(record(body)?.market) ?? record(body);
  return instant(market?.fee_waiver_expiration_time) ?? null;
}

/**
 * The market's fee versions, oldest first: the series' fee (for all time when no change of it
 * took effect by `now`, else from its first recorded change: before it, what the series charged is
 * not stated), each series change (past or scheduled), each event override on top of it (a cleared
 * override returns to the series), and a waiver (no fee) until the waiver expires. An instant
 * before the first version has no fee read from the venue (the table's fallback applies).
 */
export function kalshiFeeVersions(series: KalshiSeriesFee, seriesChanges: readonly KalshiFeeChange[], eventChanges: readonly KalshiFeeChange[], waiverUntil: number | null, now: number): KalshiFeeVersion[] {
  type Base = { at: number; feeType: string; multiplier: string; source: KalshiFeeVersion["source"] };
  const changes: Base[] = seriesChanges.map((c) => ({ at: c.at, feeType: c.feeType ?? series.feeType, multiplier: c.multiplier ?? series.multiplier, source: "series_fee_change" as const }));
  const base: Base[] = seriesChanges.some((c) => c.at <= now) ? changes : [{ at: Number.NEGATIVE_INFINITY, feeType: series.feeType, multiplier: series.multiplier, source: "series" }, ...changes];
  const instants = [...new Set([...base.map((b) => b.at), ...eventChanges.map((c) => c.at), ...(waiverUntil === null ? [] : [waiverUntil])])].sort((x, y) => x - y);
  const versions: KalshiFeeVersion[] = [];
  for (const at of instants) {
    const current = base.filter((b) => b.at <= at).at(-1);
    if (current === undefined) continue;
    const override = eventChanges.filter((c) => c.at <= at).at(-1);
    const overridden = override !== undefined && (override.feeType !== null || override.multiplier !== null);
    const feeType = overridden ? (override.feeType ?? current.feeType) : current.feeType;
    const multiplier = overridden ? (override.multiplier ?? current.multiplier) : current.multiplier;
    const waived = waiverUntil !== null && at < waiverUntil;
    const source: KalshiFeeVersion["source"] = waived ? "fee_waiver" : overridden ? "event_override" : current.source;
    const version: KalshiFeeVersion = { from: at, feeType, multiplier, source, takerRate: waived ? "0" : takerRateOf(feeType, multiplier) };
    const last = versions.at(-1);
    if (last !== undefined && last.feeType === version.feeType && last.multiplier === version.multiplier && last.takerRate === version.takerRate && last.source === version.source) continue;
    versions.push(version);
  }
  return versions;
}

/** GET the Kalshi REST API (`/trade-api/v2` relative `path`, query): the parsed JSON body. */
export type KalshiGet = (path: string, query: Record<string, string>) => Promise<unknown>;

/** Reads a market's fee versions: the market (its `event_ticker`, its waiver), the event (its `series_ticker`), the series, the series' fee history and the event's overrides. */
export async function readKalshiMarketFees(get: KalshiGet, ticker: string, now: number): Promise<KalshiFeeVersion[]> {
  const marketBody = await get(`/markets/${encodeURIComponent(ticker)}`, {});
  const market = record(record(marketBody)?.market);
  const eventTicker = typeof market?.event_ticker === "string" ? market.event_ticker : undefined;
  if (eventTicker === undefined) throw new FeeFieldsMissing(`market ${ticker} without event_ticker`);
  const eventBody = await get(`/events/${encodeURIComponent(eventTicker)}`, {});
  const event = record(record(eventBody)?.event);
  const seriesTicker = typeof event?.series_ticker === "string" ? event.series_ticker : (eventTicker.split("-")[0] ?? eventTicker);
  const series = parseSeriesFee(await get(`/series/${encodeURIComponent(seriesTicker)}`, {}));
  const seriesChanges = parseSeriesFeeChanges(await get("/series/fee_changes", { series_ticker: seriesTicker, show_historical: "true" }), seriesTicker);
  const eventChanges: KalshiFeeChange[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page += 1) {
    const result = parseEventFeeChanges(await get("/events/fee_changes", { event_ticker: eventTicker, limit: "100", ...(cursor === null ? {} : { cursor }) }), eventTicker);
    eventChanges.push(...result.changes);
    cursor = result.cursor;
    if (cursor === null) break;
  }
  eventChanges.sort((x, y) => x.at - y.at);
  return kalshiFeeVersions(series, seriesChanges, eventChanges, parseFeeWaiver(marketBody), now);
}
