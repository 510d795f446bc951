import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/v0/sql/route";
import { getDb } from "@/lib/db";
import { currentOutcomeByMarket, currentOutcomes, nextOutcome, outcomeKey, recordResolutions, resolutionChanges, resolvedMarkets } from "@/lib/outcomes/store";
import type { ResolutionRecord } from "@/lib/outcomes/types";
import { getTickStores } from "@/lib/ticks";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/*
 * Both stores of market outcomes (lib/outcomes/store.ts): every change appended to ClickHouse and
 * readable through POST /v0/sql, the current outcome in PostgreSQL; reversals keep every earlier state.
 */

const T0 = Date.parse("2026-11-01T12:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

function record(partial: Partial<ResolutionRecord> & Pick<ResolutionRecord, "venue" | "venueMarketId" | "state">): ResolutionRecord {
  return {
    market: partial.venueMarketId,
    outcomeIds: [`${partial.venueMarketId}`, `${partial.venueMarketId}-NO`],
    venueState: null,
    winningOutcomeId: null,
    settlementValue: null,
    closedAt: null,
    venueTime: at(0),
    receivedAt: at(0),
    source: "rest",
    resolutionSource: null,
    raw: JSON.stringify({ state: partial.state }),
    ...partial,
  };
}

let key: string;
beforeAll(async () => {
  ({ key } = await makeKey("enterprise"));
});

async function sql(query: string): Promise<Array<Record<string, unknown>>> {
  const res = await callRoute(POST, { path: "/v0/sql", key, body: { query } });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Array<Record<string, unknown>> }).data;
}

describe("nextOutcome", () => {
  const base = record({ venue: "kalshi", venueMarketId: "K-A", state: "determined", winningOutcomeId: "K-A", settlementValue: 1, venueTime: at(10) });
  const current = nextOutcome(undefined, base);

  it("takes the first record of a market as its first change", () => {
    expect(current?.changes).toBe(1);
    expect(current?.determinedAt).toEqual(at(10));
  });

  it("ignores the same statement again (a sweep re-reading a settled market)", () => {
    expect(current).toBeDefined();
    expect(nextOutcome(current, { ...base, venueTime: at(20), receivedAt: at(21) })).toBeUndefined();
  });

  it("ignores a stale record (earlier venue time, no further along) but takes an earlier-timed one that moves further", () => {
    expect(nextOutcome(current, record({ venue: "kalshi", venueMarketId: "K-A", state: "closed", venueTime: at(5) }))).toBeUndefined();
    const settled = nextOutcome(current, { ...base, state: "settled", venueState: "finalized", venueTime: at(9) });
    expect(settled?.state).toBe("settled");
    expect(settled?.changes).toBe(2);
  });

  it("never lets `unknown` replace a known state", () => {
    expect(nextOutcome(current, record({ venue: "kalshi", venueMarketId: "K-A", state: "unknown", venueTime: at(30) }))).toBeUndefined();
  });
});

describe("recordResolutions on both stores", () => {
  const poly = { venue: "polymarket", venueMarketId: "501", market: `0x${"c".repeat(64)}`, outcomeIds: ["9001", "9002"] };
  const kalshi = { venue: "kalshi", venueMarketId: "KX-AMEND", market: "KX-AMEND", outcomeIds: ["KX-AMEND", "KX-AMEND-NO"] };
  const voided = { venue: "kalshi", venueMarketId: "KX-VOID", market: "KX-VOID", outcomeIds: ["KX-VOID", "KX-VOID-NO"] };
  const split = { venue: "polymarket", venueMarketId: "502", market: `0x${"d".repeat(64)}`, outcomeIds: ["9101", "9102"] };

  beforeAll(async () => {
    const db = await getDb();
    const { writer } = await getTickStores();
    // A Polymarket market proposed, then disputed, then resolved; one call per batch the readers would make.
    await recordResolutions(db, writer, [
      record({ ...poly, state: "closed", closedAt: at(0), venueTime: at(0), receivedAt: at(1) }),
      record({ ...poly, state: "proposed", venueState: "proposed", winningOutcomeId: "9001", closedAt: at(0), venueTime: at(60), receivedAt: at(61) }),
    ]);
    await recordResolutions(db, writer, [
      record({ ...poly, state: "disputed", venueState: "disputed", closedAt: at(0), venueTime: at(120), receivedAt: at(121), source: "push" }),
    ]);
    await recordResolutions(db, writer, [
      record({ ...poly, state: "settled", venueState: "resolved", winningOutcomeId: "9002", settlementValue: 0, closedAt: at(0), venueTime: at(300), receivedAt: at(301), resolutionSource: "https://example.org/source" }),
      // The same statement read again by the next sweep page: no change.
      record({ ...poly, state: "settled", venueState: "resolved", winningOutcomeId: "9002", settlementValue: 0, closedAt: at(0), venueTime: at(300), receivedAt: at(302) }),
    ]);
    // Kalshi: determined yes, amended to no, finalized.
    await recordResolutions(db, writer, [
      record({ ...kalshi, state: "determined", venueState: "determined", winningOutcomeId: "KX-AMEND", settlementValue: 1, closedAt: at(0), venueTime: at(30), receivedAt: at(31), source: "push" }),
      record({ ...kalshi, state: "determined", venueState: "amended", winningOutcomeId: "KX-AMEND-NO", settlementValue: 0, closedAt: at(0), venueTime: at(90), receivedAt: at(91) }),
      record({ ...kalshi, state: "settled", venueState: "finalized", winningOutcomeId: "KX-AMEND-NO", settlementValue: 0, closedAt: at(0), venueTime: at(200), receivedAt: at(201), settledAt: at(200) }),
    ]);
    await recordResolutions(db, writer, [
      record({ ...voided, state: "voided", venueState: "finalized", closedAt: at(0), venueTime: at(40), receivedAt: at(41) }),
      record({ ...split, state: "settled", venueState: "resolved", settlementValue: 0.5, closedAt: at(0), venueTime: at(50), receivedAt: at(51) }),
    ]);
  });

  it("keeps the current outcome in PostgreSQL, with the count of changes behind it", async () => {
    const db = await getDb();
    const current = await currentOutcomes(db, [poly, kalshi, voided, split]);
    expect(current.get(outcomeKey("polymarket", "501"))).toMatchObject({
      state: "settled",
      winningOutcomeId: "9002",
      settlementValue: 0,
      closedAt: at(0),
      settledAt: at(300),
      venueState: "resolved",
      resolutionSource: "https://example.org/source",
      changes: 4,
    });
    expect(current.get(outcomeKey("kalshi", "KX-AMEND"))).toMatchObject({
      state: "settled",
      venueState: "finalized",
      winningOutcomeId: "KX-AMEND-NO",
      settlementValue: 0,
      determinedAt: at(90),
      settledAt: at(200),
      changes: 3,
    });
    expect(current.get(outcomeKey("kalshi", "KX-VOID"))).toMatchObject({ state: "voided", winningOutcomeId: null, settlementValue: null });
    expect(current.get(outcomeKey("polymarket", "502"))).toMatchObject({ state: "settled", winningOutcomeId: null, settlementValue: 0.5 });
    expect((await currentOutcomeByMarket(db, "polymarket", poly.market))?.venueMarketId).toBe("501");
  });

  it("appends every change to ClickHouse, the reversals included, nothing overwritten", async () => {
    const { queries } = await getTickStores();
    const polyChanges = await resolutionChanges(queries, { venue: "polymarket", limit: 100 });
    expect(polyChanges.filter((c) => c.market === poly.market).map((c) => [c.state, c.winningOutcomeId, c.source])).toEqual([
      ["closed", null, "rest"],
      ["proposed", "9001", "rest"],
      ["disputed", null, "push"],
      ["settled", "9002", "rest"],
    ]);
    const kalshiChanges = await resolutionChanges(queries, { venue: "kalshi", state: "determined", limit: 100 });
    expect(kalshiChanges.map((c) => [c.venueState, c.winningOutcomeId, c.settlementValue])).toEqual([
      ["determined", "KX-AMEND", 1],
      ["amended", "KX-AMEND-NO", 0],
    ]);
  });

  it("pages the changes by cursor position in the order they were received", async () => {
    const { queries } = await getTickStores();
    const all = await resolutionChanges(queries, { limit: 100 });
    expect(all).toHaveLength(9);
    const received = all.map((c) => c.receivedAt.getTime());
    expect([...received].sort((a, b) => a - b)).toEqual(received);
    const first = await resolutionChanges(queries, { limit: 3 });
    const last = first[2];
    expect(last).toBeDefined();
    if (last === undefined) return;
    const rest = await resolutionChanges(queries, {
      limit: 100,
      after: [last.receivedAt.getTime(), last.venue, last.market, last.venueTime.getTime(), last.state],
    });
    expect([...first, ...rest]).toEqual(all);
    expect(await resolutionChanges(queries, { since: at(100), until: at(202), limit: 100 })).toHaveLength(2);
  });

  it("lists resolved markets in a close-time window for the calibration, voided ones left out", async () => {
    const db = await getDb();
    const resolved = await resolvedMarkets(db, { since: at(-1), until: at(1), limit: 10 });
    expect(resolved.map((m) => [m.venue, m.venueMarketId, m.winningOutcomeId, m.settlementValue])).toEqual([
      ["kalshi", "KX-AMEND", "KX-AMEND-NO", 0],
      ["polymarket", "501", "9002", 0],
      ["polymarket", "502", null, 0.5],
    ]);
    const [firstMarket] = resolved;
    expect(firstMarket).toBeDefined();
    if (firstMarket === undefined) return;
    const page = await resolvedMarkets(db, { venue: ["polymarket"], since: at(-1), until: at(1), limit: 10, after: firstMarket });
    expect(page.map((m) => m.venueMarketId)).toEqual(["501", "502"]);
    expect(await resolvedMarkets(db, { since: at(1), until: at(100), limit: 10 })).toEqual([]);
  });

  it("is readable through POST /v0/sql beside the books", async () => {
    const rows = await sql(
      `SELECT state, venue_state, winning_outcome_id, settlement_value, source, raw FROM market_outcomes WHERE venue = 'kalshi' AND market = 'KX-AMEND' ORDER BY venue_time`,
    );
    expect(rows.map((r) => [r.state, r.venue_state, r.winning_outcome_id, r.settlement_value])).toEqual([
      ["determined", "determined", "KX-AMEND", 1],
      ["determined", "amended", "KX-AMEND-NO", 0],
      ["settled", "finalized", "KX-AMEND-NO", 0],
    ]);
    const current = await sql(`SELECT market, argMax(state, (venue_time, received_time)) AS state, argMax(settlement_value, (venue_time, received_time)) AS value
      FROM market_outcomes WHERE venue = 'polymarket' GROUP BY market ORDER BY market`);
    expect(current).toEqual([
      { market: poly.market, state: "settled", value: 0 },
      { market: split.market, state: "settled", value: 0.5 },
    ]);
  });
});
