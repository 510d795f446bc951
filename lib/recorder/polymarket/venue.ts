import "server-only";
import { config } from "@/lib/config";
import { tickTable } from "@/lib/ticks/ddl/0001_polymarket_orderbook";
import type { RecordedVenue } from "../venue";
import { polymarketFeeSchedule } from "./fee-schedule";
import { readPolymarketMarketFee, type PolymarketMarketFee } from "./fees";
import { recorderIdleReason } from "./idle";
import { sweepPolymarketSettlement } from "./settlement";
import { sweepPolymarketOutcomes } from "./outcomes";
import { PolymarketRest } from "./rest";
import { recorderStatus, startRecorder, stopRecorder } from "./service";

/** Polymarket's schedule as dated versions: the market's schedule from its creation. */
export function polymarketVersions(fee: PolymarketMarketFee) {
  const note = fee.feesEnabled ? `the market's feeSchedule (rate ${fee.rate}, exponent ${fee.exponent}${fee.takerOnly ? ", takers only" : ""})` : "the market's feesEnabled is false";
  return [{ from: fee.createdAt, takerRate: fee.rate, exponent: fee.exponent, note }];
}

/** Polymarket, recorded from its market channel into `polymarket_orderbook_rust` (docs/ticks.md). */
export const polymarketVenue: RecordedVenue = {
  id: "polymarket",
  label: "Polymarket",
  table: tickTable,
  statusKey: "recorder",
  keyedBy: "contractAddress",
  recordsUnlistedVenues: true,
  recorder: {
    enabled: () => config.recorder.enabled,
    startupTask: "tick recorder start",
    start: async ({ stores, db, mode, outcomes }) => {
      await startRecorder(stores, db, mode, outcomes);
    },
    stop: stopRecorder,
    status: async (db) => {
      const recorder = recorderStatus();
      return { ...recorder, idleReason: await recorderIdleReason(db, recorder.subscribedAssets) };
    },
    report: recorderStatus,
  },
  fees: {
    schedule: polymarketFeeSchedule,
    market: {
      reader: "gamma",
      defaultReader: (timeoutMs) => {
        const rest = new PolymarketRest({ timeoutMs });
        return (path, query) => rest.gamma(path, query);
      },
      read: async (get, market) => (market.contractAddress === null ? undefined : polymarketVersions(await readPolymarketMarketFee(get, market.contractAddress))),
    },
  },
  outcomes: {
    reader: () => {
      const rest = new PolymarketRest();
      return (record, since) => sweepPolymarketOutcomes(rest, record, since);
    },
  },
  settlement: {
    reader: (options = {}) => {
      const rest = new PolymarketRest(options.redirectUrl === undefined ? {} : { redirectUrl: options.redirectUrl });
      return () => sweepPolymarketSettlement(rest);
    },
  },
};
