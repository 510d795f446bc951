import { decimalText, FeeFieldsMissing, record } from "../fee-fields";

/**
 * Polymarket's fee of one market, read from the market itself (docs/spreads.md, "Fees"): every
 * Gamma market carries `feesEnabled` and, where fees are enabled, `feeSchedule` (`rate`,
 * `exponent`, `takerOnly`, `rebateRate`): the fee a taker pays is `C × rate × (p × (1 − p))^exponent`.
 * A market keeps the schedule it was created under (the venue's "Trading fees" page: fees are
 * determined per market), so the schedule read now holds from the market's creation.
 *
 * Pure functions over the venue's wire shape; the fetch goes through the caller's `get` (a Gamma
 * client), so the parsing is tested without a venue and the reading against a loopback fake.
 */

/** One market's fee as Polymarket states it. */
export interface PolymarketMarketFee {
  conditionId: string;
  /** The market's own `createdAt` (epoch ms): the schedule holds from there. */
  createdAt: number | null;
  feesEnabled: boolean;
  /** Taker rate as a decimal string ("0.03"); "0" when fees are not enabled. */
  rate: string;
  exponent: 1 | 2;
  takerOnly: boolean;
  rebateRate: string | null;
}

const instant = (value: unknown): number | null => {
  if (typeof value !== "string") return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
};

/**
 * The fee of a Gamma market object. `feesEnabled: false` is a fee of zero; `feesEnabled: true`
 * needs a `feeSchedule` with a rate and an exponent of 1 or 2. Anything else (a field missing or
 * of another shape) throws FeeFieldsMissing: the caller falls back to the schedule table.
 */
export function parseGammaMarketFee(market: unknown): PolymarketMarketFee {
  const m = record(market);
  const conditionId = typeof m?.conditionId === "string" ? m.conditionId : undefined;
  if (m === undefined || conditionId === undefined) throw new FeeFieldsMissing("not a Gamma market (no conditionId)");
  const createdAt = instant(m.createdAt);
  if (m.feesEnabled === false) return { conditionId, createdAt, feesEnabled: false, rate: "0", exponent: 1, takerOnly: true, rebateRate: null };
  if (m.feesEnabled !== true) throw new FeeFieldsMissing(`market ${conditionId} has no feesEnabled`);
  const schedule = record(m.feeSchedule);
  if (schedule === undefined) throw new FeeFieldsMissing(`market ${conditionId} has fees enabled but no feeSchedule`);
  const rate = decimalText(schedule.rate);
  const exponent = Number(schedule.exponent);
  if (rate === undefined || (exponent !== 1 && exponent !== 2)) throw new FeeFieldsMissing(`market ${conditionId}: feeSchedule without a rate or an exponent of 1 or 2`);
  return {
    conditionId,
    createdAt,
    feesEnabled: true,
    rate,
    exponent,
    takerOnly: schedule.takerOnly !== false,
    rebateRate: decimalText(schedule.rebateRate) ?? null,
  };
}

/** GET the Gamma API: `path` and query, the parsed JSON body. */
export type GammaGet = (path: string, query: Record<string, string>) => Promise<unknown>;

/** Reads one market's fee from Gamma (`GET /markets?condition_ids=`). */
export async function readPolymarketMarketFee(get: GammaGet, conditionId: string): Promise<PolymarketMarketFee> {
  const body = await get("/markets", { condition_ids: conditionId });
  const markets = Array.isArray(body) ? body : [];
  const market = markets.find((m) => record(m)?.conditionId === conditionId);
  if (market === undefined) throw new FeeFieldsMissing(`Gamma has no market ${conditionId}`);
  return parseGammaMarketFee(market);
}
