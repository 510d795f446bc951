import type { Category } from "@/lib/catalog/categories";
import { registryGeneration } from "@/lib/recorder/registry";
import { feeSchedules, type FeeRounding, type FeeRule, type FeeScheduleVersion } from "./fee-schedules";

/**
 * Fees as the venues compute them (docs/spreads.md, "Fees"): the schedule in force at an instant,
 * the rule of that schedule for a market, and the fee of one taking order in exact integer
 * arithmetic, rounded as the venue rounds it.
 */

/**
 * One dated version of a market's own fee, read from the venue's fields (lib/spreads/market-fees.ts):
 * in force from `from` (epoch ms; null: since the market existed) until the next version.
 */
export interface MarketFeeVersion {
  from: number | null;
  /** Taker rate as the venue states it ("0.07"); null where the venue's fee type is not one Brier prices. */
  takerRate: string | null;
  exponent: 1 | 2;
  /** Which of the venue's fields set it (shown as the rule's note). */
  note: string;
}

/** What a fee rule needs to know of a market. */
export interface FeeSubject {
  venue: string;
  /** The venue's market id (the Kalshi ticker: its first segment is the series). */
  venueMarketId: string;
  category: Category;
  /** The market's own fee versions, oldest first, where its venue's fields were read; the schedule table is the fallback. */
  marketFees?: readonly MarketFeeVersion[];
}

/** The fee model of one market at one instant, or why there is none. */
export type MarketFee =
  | { known: true; schedule: string; rule: FeeRule; rounding: FeeRounding; rate: Ratio }
  | { known: false; schedule: null; reason: string };

/** A decimal rate as an exact ratio of integers. */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

export function ratio(decimal: string): Ratio {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (match === null) throw new Error(`not a decimal rate: ${decimal}`);
  const fraction = match[2] ?? "";
  return { numerator: BigInt(`${match[1]}${fraction}`), denominator: 10n ** BigInt(fraction.length) };
}

/** Each venue's schedule versions, oldest first; built again when the registry of recorded venues changes. */
let schedulesOf = { generation: -1, byVenue: new Map<string, FeeScheduleVersion[]>() };

function schedulesByVenue(): Map<string, FeeScheduleVersion[]> {
  if (schedulesOf.generation === registryGeneration()) return schedulesOf.byVenue;
  const byVenue = new Map<string, FeeScheduleVersion[]>();
  for (const version of feeSchedules()) {
    const list = byVenue.get(version.venue) ?? [];
    list.push(version);
    byVenue.set(version.venue, list);
  }
  for (const list of byVenue.values()) list.sort((a, b) => Date.parse(a.effectiveFrom) - Date.parse(b.effectiveFrom));
  schedulesOf = { generation: registryGeneration(), byVenue };
  return byVenue;
}

/** The version of the venue's schedule in force at `at` (epoch ms), if Brier has one. */
export function scheduleAt(venue: string, at: number): FeeScheduleVersion | undefined {
  let found: FeeScheduleVersion | undefined;
  for (const version of schedulesByVenue().get(venue) ?? []) if (Date.parse(version.effectiveFrom) <= at) found = version;
  return found;
}

/** The instants in (from, to] at which the market's fee may change (its venue's schedule, its own fee versions): a series re-prices its fees there. */
export function scheduleChanges(market: Pick<FeeSubject, "venue" | "marketFees">, from: number, to: number): number[] {
  const own = (market.marketFees ?? []).flatMap((version) => (version.from === null ? [] : [version.from]));
  const venue = (schedulesByVenue().get(market.venue) ?? []).map((version) => Date.parse(version.effectiveFrom));
  return [...new Set([...venue, ...own])].filter((at) => at > from && at <= to).sort((a, b) => a - b);
}

/** The market's own fee version in force at `at`, if its venue's fields were read and one applies. */
function marketVersionAt(market: FeeSubject, at: number): MarketFeeVersion | undefined {
  let found: MarketFeeVersion | undefined;
  for (const version of market.marketFees ?? []) if (version.from === null || version.from <= at) found = version;
  return found;
}

function seriesOf(ticker: string): string {
  return ticker.split("-")[0]?.toUpperCase() ?? "";
}

/** The fee model of `market` at `at`: the first matching rule of the schedule in force. */
export function marketFeeAt(market: FeeSubject, at: number): MarketFee {
  const version = scheduleAt(market.venue, at);
  if (version === undefined) {
    const venues = [...schedulesByVenue().keys()];
    return {
      known: false,
      schedule: null,
      reason: venues.includes(market.venue)
        ? `No ${market.venue} fee schedule in Brier's data is in force at ${new Date(at).toISOString()}.`
        : `Brier has no fee schedule for ${market.venue}.`,
    };
  }
  const own = marketVersionAt(market, at);
  if (own !== undefined) {
    if (own.takerRate === null) return { known: false, schedule: null, reason: `The market's own fee (${own.note}) is of a type Brier does not price.` };
    const rule: FeeRule = { takerRate: own.takerRate, exponent: own.exponent, basis: "market", note: own.note };
    return { known: true, schedule: `${market.venue}-market`, rule, rounding: version.rounding, rate: ratio(own.takerRate) };
  }
  for (const { match, rule } of version.rules) {
    if (match.kalshiSeries !== undefined && !match.kalshiSeries.includes(seriesOf(market.venueMarketId))) continue;
    if (match.categories !== undefined && !match.categories.includes(market.category)) continue;
    return { known: true, schedule: version.id, rule, rounding: version.rounding, rate: ratio(rule.takerRate) };
  }
  return { known: false, schedule: null, reason: `The ${version.id} schedule has no rule for this market.` };
}

/** Identifies a fee model: two instants with the same key are priced with the same fee. */
export function feeKey(fee: MarketFee): string {
  return fee.known ? `${fee.schedule}:${fee.rule.takerRate}:${fee.rule.exponent}:${fee.rounding.per}:${fee.rounding.decimals}` : "unknown";
}

/** Prices are exact in 1/10,000 (both venues' finest tick), sizes in 1/1,000,000 of a contract. */
export const PRICE_UNITS = 10_000;
export const SIZE_UNITS = 1_000_000;
const PRICE_UNITS_N = BigInt(PRICE_UNITS);
const SIZE_UNITS_N = BigInt(SIZE_UNITS);

/** One fill of an order: `size` contracts at `price` dollars. */
export interface Fill {
  price: number;
  size: number;
}

const priceUnits = (price: number) => BigInt(Math.round(price * PRICE_UNITS));
const sizeUnits = (size: number) => BigInt(Math.round(size * SIZE_UNITS));

function divideRounded(numerator: bigint, denominator: bigint, mode: FeeRounding["mode"]): bigint {
  if (mode === "down") return numerator / denominator;
  if (mode === "up") return (numerator + denominator - 1n) / denominator;
  return (2n * numerator + denominator) / (2n * denominator);
}

const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/**
 * Kalshi's fee of one order since its centicent rounding (docs/spreads.md, "Fees"), in units of
 * 10^-10 dollar: per fill, the trade fee rounded up to `decimals`, the balance change (revenue,
 * negative for a buyer, minus the fee) floored to `balanceDecimals`, the difference a rounding
 * fee added to the order's accumulator, and a whole unit of the balance precision refunded each
 * time the accumulator reaches one.
 */
function balanceRoundedFee(numerators: readonly bigint[], denominator: bigint, revenues: readonly bigint[], decimals: number, balanceDecimals: number): bigint {
  const unit = 10n ** 10n;
  const feeStep = unit / 10n ** BigInt(decimals);
  const balanceStep = unit / 10n ** BigInt(balanceDecimals);
  let net = 0n;
  let accumulated = 0n;
  numerators.forEach((numerator, i) => {
    // numerator / denominator is the fee in 1/10^decimals dollar, rounded up.
    const tradeFee = ((numerator + denominator - 1n) / denominator) * feeStep;
    const balance = (revenues[i] ?? 0n) - tradeFee;
    const rounding = balance - floorDiv(balance, balanceStep) * balanceStep;
    net += tradeFee + rounding;
    accumulated += rounding;
    // A whole unit of accumulated overpayment is refunded (the page's "exceeds $0.01", read as
    // reaching it: that is what makes an order's total converge to one equivalent fill's fee).
    while (accumulated >= balanceStep) {
      net -= balanceStep;
      accumulated -= balanceStep;
    }
  });
  return net;
}

/**
 * The taker fee of one order, in dollars: `rate × C × (P × (1 − P))^exponent` per fill, rounded to
 * the schedule's decimals per fill or once for the order (or, Kalshi's current rounding, per fill
 * and then the balance: `side` says whether the order pays or receives money). Exact: every
 * product is an integer.
 */
export function takerFee(fee: Extract<MarketFee, { known: true }>, fills: readonly Fill[], side: "buy" | "sell" = "buy"): number {
  if (fee.rate.numerator === 0n || fills.length === 0) return 0;
  const { decimals, mode, per } = fee.rounding;
  const scale = 10n ** BigInt(decimals);
  const exponent = BigInt(fee.rule.exponent);
  // fee × 10^decimals = rate × c × q / (SIZE × PRICE^(2e)), q = (p (PRICE − p))^e.
  const denominator = fee.rate.denominator * SIZE_UNITS_N * PRICE_UNITS_N ** (2n * exponent);
  if (per === "fill_then_balance") {
    const numerators = fills.map((fill) => {
      const p = priceUnits(fill.price);
      return fee.rate.numerator * sizeUnits(fill.size) * (p * (PRICE_UNITS_N - p)) ** exponent * scale;
    });
    // Revenue in 10^-10 dollar: price (10^-4) × size (10^-6).
    const revenues = fills.map((fill) => (side === "buy" ? -1n : 1n) * priceUnits(fill.price) * sizeUnits(fill.size));
    return Number(balanceRoundedFee(numerators, denominator, revenues, decimals, fee.rounding.balanceDecimals ?? 2)) / 1e10;
  }
  let units = 0n;
  let pending = 0n;
  for (const fill of fills) {
    const p = priceUnits(fill.price);
    const q = (p * (PRICE_UNITS_N - p)) ** exponent;
    const numerator = fee.rate.numerator * sizeUnits(fill.size) * q * scale;
    if (per === "fill") units += divideRounded(numerator, denominator, mode);
    else pending += numerator;
  }
  if (per === "order") units = divideRounded(pending, denominator, mode);
  return Number(units) / Number(scale);
}

/** The fee rate of one contract at `price` before rounding (what the marginal contract costs): for the size an edge supports. */
export function marginalFeePerContract(fee: MarketFee, price: number): number {
  if (!fee.known) return 0;
  const rate = Number(fee.rate.numerator) / Number(fee.rate.denominator);
  return rate * (price * (1 - price)) ** fee.rule.exponent;
}

/** Every schedule version, for GET /v0/fees. */
export function allScheduleVersions(): readonly FeeScheduleVersion[] {
  return feeSchedules();
}
