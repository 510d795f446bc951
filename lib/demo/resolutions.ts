import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import type { Db } from "@/lib/db";
import { currentOutcomes, outcomeKey, recordResolutions } from "@/lib/outcomes/store";
import type { ResolutionChange, ResolutionRecord, ResolutionState } from "@/lib/outcomes/types";
import type { DemoMarket, DemoResolution } from "./ticks";

/**
 * The offline demo's SYNTHETIC resolutions (docs/outcomes.md, "The offline demo"): the markets
 * `writeDemoTicks` closed, each with the result its own price path gives (its YES mid at the close:
 * above 50% Yes, below No, exactly 50% a 50-50), recorded through the outcomes' one writer
 * (PostgreSQL's current outcome, ClickHouse's changes) with `learnedBy: synthetic`, so the feed,
 * the market page and the Calibration page show them on a fresh clone with no network, and no
 * reader can take one for a venue's word.
 */

/** The share of the demo's markets whose history ends in a close and a result (the first, most traded, stays open). */
export const DEMO_RESOLVE_SHARE = 0.4;

/** What the demo names as the source of each result: the rule, never a venue. */
export const DEMO_RESOLUTION_SOURCE = "SYNTHETIC: the simulated price path of admin demo-ticks (its YES mid at the close)";

/** After the close: the result stated, then paid out. */
const DETERMINED_AFTER_MS = 15 * 60_000;
const SETTLED_AFTER_MS = 60 * 60_000;

/**
 * The records of one venue's closed demo markets, oldest statement first: `closed` at the close,
 * `determined` 15 minutes later with the result, `settled` an hour after the close (each only when
 * it is not after `now`). Markets without a catalog id are skipped: nothing could show them.
 */
export function demoResolutionRecords(venue: string, resolutions: readonly DemoResolution[], now: number): ResolutionRecord[] {
  const records: ResolutionRecord[] = [];
  for (const resolution of resolutions) {
    const { market } = resolution;
    const [yes, no] = market.outcomeIds;
    if (market.venueMarketId === undefined || yes === undefined || no === undefined) continue;
    const winner = resolution.result === "yes" ? yes : resolution.result === "no" ? no : null;
    const value = resolution.result === "yes" ? 1 : resolution.result === "no" ? 0 : 0.5;
    const closedAt = new Date(resolution.closedAtMs);
    const raw = JSON.stringify({
      synthetic: true,
      rule: "the YES mid at the close: above 0.5 Yes, below No, 0.5 a 50-50",
      decidedAt: new Date(resolution.decidedAtMs).toISOString(),
      midAtDecision: resolution.midAtDecision,
      midAtClose: resolution.midAtClose,
    });
    const statement = (state: ResolutionState, atMs: number, result: boolean): ResolutionRecord => ({
      venue,
      venueMarketId: market.venueMarketId ?? "",
      market: market.conditionId,
      outcomeIds: [...market.outcomeIds],
      state,
      venueState: null,
      winningOutcomeId: result ? winner : null,
      settlementValue: result ? value : null,
      closedAt,
      venueTime: new Date(atMs),
      receivedAt: new Date(atMs),
      source: "synthetic",
      resolutionSource: DEMO_RESOLUTION_SOURCE,
      raw,
    });
    for (const [state, atMs, result] of [
      ["closed", resolution.closedAtMs, false],
      ["determined", resolution.closedAtMs + DETERMINED_AFTER_MS, true],
      ["settled", resolution.closedAtMs + SETTLED_AFTER_MS, true],
    ] as const) {
      if (atMs <= now) records.push(statement(state, atMs, result));
    }
  }
  return records.sort((a, b) => a.venueTime.getTime() - b.venueTime.getTime());
}

/** Records the demo's resolutions through the outcomes' writer; returns the changes written. */
export function recordDemoResolutions(db: Db, writer: ClickHouseClient, venue: string, resolutions: readonly DemoResolution[], now: number): Promise<ResolutionChange[]> {
  return recordResolutions(db, writer, demoResolutionRecords(venue, resolutions, now));
}

/**
 * The demo markets that closed already (any outcome recorded past `open`): their books stay as they
 * stood at the close, so neither a new history nor the live demo moves them again.
 */
export async function closedDemoMarkets(db: Db, venue: string, demoMarkets: readonly DemoMarket[]): Promise<Set<string>> {
  const keyed = demoMarkets.flatMap((m) => (m.venueMarketId === undefined ? [] : [{ venue, venueMarketId: m.venueMarketId }]));
  const current = await currentOutcomes(db, keyed);
  const closed = new Set<string>();
  for (const market of demoMarkets) {
    if (market.venueMarketId === undefined) continue;
    const outcome = current.get(outcomeKey(venue, market.venueMarketId));
    if (outcome !== undefined && outcome.state !== "open" && outcome.state !== "unknown") closed.add(market.conditionId);
  }
  return closed;
}
