import "server-only";
import { config } from "@/lib/config";
import { kalshiTable } from "@/lib/ticks/ddl/0004_kalshi_orderbook";
import type { RecordedVenue } from "../venue";
import { kalshiFeeSchedule } from "./fee-schedule";
import { readKalshiMarketFees, type KalshiFeeVersion } from "./fees";
import { sweepKalshiSettlement } from "./settlement";
import { sweepKalshiOutcomes } from "./outcomes";
import { KalshiRest } from "./rest";
import { kalshiRecorderStatus, startKalshiRecorder, stopKalshiRecorder } from "./service";

const sourceNote: Record<KalshiFeeVersion["source"], string> = {
  series: "the series' fee_type and fee_multiplier",
  series_fee_change: "a fee change of the series",
  event_override: "the event's fee override",
  fee_waiver: "the market's fee waiver (until fee_waiver_expiration_time)",
};

/** Kalshi's fee versions as stored: each with the field that set it. */
export function kalshiVersions(versions: readonly KalshiFeeVersion[]) {
  return versions.map((v) => ({
    from: Number.isFinite(v.from) ? v.from : null,
    takerRate: v.takerRate,
    exponent: 1 as const,
    note: `${sourceNote[v.source]}: ${v.feeType} × ${v.multiplier}`,
  }));
}

/** Kalshi, recorded from its authenticated market channel into `kalshi_orderbook` (docs/ticks.md, "Kalshi"). */
export const kalshiVenue: RecordedVenue = {
  id: "kalshi",
  label: "Kalshi",
  table: kalshiTable,
  statusKey: "kalshiRecorder",
  keyedBy: "venueMarketId",
  recorder: {
    enabled: () => config.kalshiRecorder.enabled,
    // Without credentials it records nothing and says why in its status; it never throws.
    start: async ({ stores, db, mode, outcomes }) => {
      await startKalshiRecorder(stores, db, mode, outcomes);
    },
    stop: stopKalshiRecorder,
    status: async () => kalshiRecorderStatus(),
    report: kalshiRecorderStatus,
  },
  fees: {
    schedule: kalshiFeeSchedule,
    market: {
      reader: "kalshi",
      defaultReader: (timeoutMs) => {
        const rest = new KalshiRest({ timeoutMs });
        return (path, query) => rest.get(path, query);
      },
      read: async (get, market, now) => kalshiVersions(await readKalshiMarketFees(get, market.venueMarketId, now)),
    },
  },
  outcomes: {
    reader: () => {
      const rest = new KalshiRest();
      return (record, since) => sweepKalshiOutcomes(rest, record, since === undefined ? {} : { minCloseTs: Math.floor(since.getTime() / 1000), historical: false });
    },
  },
  settlement: {
    reader: (options = {}) => {
      const rest = new KalshiRest(options.redirectUrl === undefined ? {} : { redirectUrl: options.redirectUrl });
      return () => sweepKalshiSettlement(rest);
    },
  },
};
