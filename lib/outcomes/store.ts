import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { sql } from "drizzle-orm";
import { resultRows, type Db } from "@/lib/db";
import { marketOutcomes } from "@/lib/db/schema/market-outcomes";
import { outcomesTable } from "@/lib/ticks/published";
import type { CurrentOutcome, ResolutionChange, ResolutionRecord, ResolutionSource, ResolutionState } from "./types";

/*
 * The two stores of market outcomes (docs/outcomes.md): PostgreSQL's `market_outcomes` holds the
 * current outcome per market (what catalog answers join), ClickHouse's `market_outcomes` every
 * change, appended and never rewritten. This module is the only writer of both.
 */

/** Progress along a market's life: a record older than the current one is taken only when it moves further. */
const progress: Record<ResolutionState, number> = {
  unknown: 0,
  open: 1,
  closed: 2,
  proposed: 3,
  disputed: 4,
  determined: 5,
  settled: 6,
  voided: 6,
};

const sameTime = (a: Date | null, b: Date | null) => (a === null ? b === null : b !== null && a.getTime() === b.getTime());

/**
 * The current outcome after `record`, or undefined when the record changes nothing: it states what
 * is already current, or it is stale (an earlier venue time than the current state's, and no
 * further along: a sweep's page read before a push arrived), or it says `unknown` of a market whose
 * state is known. A reversal (a dispute after a proposal, an amended result) is a change like any other.
 */
export function nextOutcome(current: CurrentOutcome | undefined, record: ResolutionRecord): CurrentOutcome | undefined {
  if (current !== undefined) {
    if (record.state === "unknown" && current.state !== "unknown") return undefined;
    const same =
      current.state === record.state &&
      current.venueState === record.venueState &&
      current.winningOutcomeId === record.winningOutcomeId &&
      current.settlementValue === record.settlementValue &&
      (record.closedAt === null || sameTime(current.closedAt, record.closedAt));
    if (same) return undefined;
    if (record.venueTime.getTime() < current.venueTime.getTime() && progress[record.state] <= progress[current.state]) return undefined;
  }
  const resolved = record.state === "determined" || record.state === "settled";
  const determinedAt =
    record.determinedAt ??
    (record.state === "determined" && (current?.state !== "determined" || current.winningOutcomeId !== record.winningOutcomeId)
      ? record.venueTime
      : current?.determinedAt ?? null);
  const settledAt = record.state === "settled" ? record.settledAt ?? current?.settledAt ?? record.venueTime : record.settledAt ?? null;
  const { determinedAt: _determined, settledAt: _settled, raw: _raw, ...facts } = record;
  return {
    ...facts,
    closedAt: record.closedAt ?? current?.closedAt ?? null,
    determinedAt: resolved || record.state === "disputed" ? determinedAt : current?.determinedAt ?? null,
    settledAt,
    resolutionSource: record.resolutionSource ?? current?.resolutionSource ?? null,
    changes: (current?.changes ?? 0) + 1,
  };
}

const keyOf = (venue: string, venueMarketId: string) => `${venue}\u0000${venueMarketId}`;

/** Rows of PostgreSQL `market_outcomes` per write statement (the JSON parameter stays a few MB). */
const WRITE_CHUNK = 2_000;

interface RawOutcomeRow {
  venue: string;
  venue_market_id: string;
  market: string;
  outcome_ids: string[];
  state: ResolutionState;
  venue_state: string | null;
  winning_outcome_id: string | null;
  settlement_value: number | string | null;
  closed_at: Date | string | null;
  determined_at: Date | string | null;
  settled_at: Date | string | null;
  venue_time: Date | string;
  received_at: Date | string;
  source: ResolutionSource;
  resolution_source: string | null;
  changes: number | string;
}

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const dateOrNull = (value: Date | string | null) => (value === null ? null : date(value));

function fromRaw(row: RawOutcomeRow): CurrentOutcome {
  return {
    venue: row.venue,
    venueMarketId: row.venue_market_id,
    market: row.market,
    outcomeIds: row.outcome_ids,
    state: row.state,
    venueState: row.venue_state,
    winningOutcomeId: row.winning_outcome_id,
    settlementValue: row.settlement_value === null ? null : Number(row.settlement_value),
    closedAt: dateOrNull(row.closed_at),
    determinedAt: dateOrNull(row.determined_at),
    settledAt: dateOrNull(row.settled_at),
    venueTime: date(row.venue_time),
    receivedAt: date(row.received_at),
    source: row.source,
    resolutionSource: row.resolution_source,
    changes: Number(row.changes),
  };
}

const outcomeColumnNames = [
  "venue", "venue_market_id", "market", "outcome_ids", "state", "venue_state", "winning_outcome_id", "settlement_value",
  "closed_at", "determined_at", "settled_at", "venue_time", "received_at", "source", "resolution_source", "changes",
] as const;
const outcomeColumns = sql.raw(outcomeColumnNames.join(", "));

/** The recordset type of a JSON array of current outcomes (plus `prior`, the change count the writer read). */
const recordsetType = sql.raw(
  `r(venue text, venue_market_id text, market text, outcome_ids text[], state text, venue_state text, winning_outcome_id text,
    settlement_value double precision, closed_at timestamptz, determined_at timestamptz, settled_at timestamptz,
    venue_time timestamptz, received_at timestamptz, source text, resolution_source text, changes integer, prior integer)`,
);

/** The current outcomes of the given markets, by `venue` NUL `venueMarketId` (see `outcomeKey`). */
export async function currentOutcomes(db: Db, keys: ReadonlyArray<{ venue: string; venueMarketId: string }>): Promise<Map<string, CurrentOutcome>> {
  const found = new Map<string, CurrentOutcome>();
  for (let i = 0; i < keys.length; i += WRITE_CHUNK) {
    const chunk = keys.slice(i, i + WRITE_CHUNK).map((k) => ({ venue: k.venue, id: k.venueMarketId }));
    const rows = resultRows<RawOutcomeRow>(
      await db.execute(sql`select ${sql.raw(outcomeColumnNames.map((column) => `o.${column}`).join(", "))} from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as k(venue text, id text)
        join ${marketOutcomes} o on o.venue = k.venue and o.venue_market_id = k.id`),
    );
    for (const row of rows) {
      const outcome = fromRaw(row);
      found.set(keyOf(outcome.venue, outcome.venueMarketId), outcome);
    }
  }
  return found;
}

/** The key `currentOutcomes` answers under. */
export function outcomeKey(venue: string, venueMarketId: string): string {
  return keyOf(venue, venueMarketId);
}

/** The current outcome of the market a books key names (the tick tables' `market`), if Brier has one. */
export async function currentOutcomeByMarket(db: Db, venue: string, market: string): Promise<CurrentOutcome | undefined> {
  const rows = resultRows<RawOutcomeRow>(
    await db.execute(sql`select ${outcomeColumns} from ${marketOutcomes} where market = ${market} and venue = ${venue} order by venue_time desc limit 1`),
  );
  const [row] = rows;
  return row === undefined ? undefined : fromRaw(row);
}

function toJsonRow(outcome: CurrentOutcome, prior: number) {
  return {
    venue: outcome.venue,
    venue_market_id: outcome.venueMarketId,
    market: outcome.market,
    outcome_ids: outcome.outcomeIds,
    state: outcome.state,
    venue_state: outcome.venueState,
    winning_outcome_id: outcome.winningOutcomeId,
    settlement_value: outcome.settlementValue,
    closed_at: outcome.closedAt?.toISOString() ?? null,
    determined_at: outcome.determinedAt?.toISOString() ?? null,
    settled_at: outcome.settledAt?.toISOString() ?? null,
    venue_time: outcome.venueTime.toISOString(),
    received_at: outcome.receivedAt.toISOString(),
    source: outcome.source,
    resolution_source: outcome.resolutionSource,
    changes: outcome.changes,
    prior,
  };
}

/** DateTime64(3) as JSONEachRow input: decimal epoch seconds, time-zone free. */
function chSeconds(value: Date): string {
  return (value.getTime() / 1000).toFixed(3);
}

function toChangeRow(change: ResolutionChange) {
  return {
    venue: change.venue,
    market: change.market,
    venue_market_id: change.venueMarketId,
    outcome_ids: change.outcomeIds,
    state: change.state,
    venue_state: change.venueState ?? "",
    winning_outcome_id: change.winningOutcomeId,
    settlement_value: change.settlementValue,
    closed_time: change.closedAt === null ? null : chSeconds(change.closedAt),
    venue_time: chSeconds(change.venueTime),
    received_time: chSeconds(change.receivedAt),
    source: change.source,
    resolution_source: change.resolutionSource,
    raw: change.raw,
  };
}

/** Appends changes to ClickHouse's `market_outcomes` (one insert). */
export async function appendResolutionChanges(writer: ClickHouseClient, changes: readonly ResolutionChange[]): Promise<void> {
  if (changes.length === 0) return;
  await writer.insert({ table: outcomesTable, values: changes.map(toChangeRow), format: "JSONEachRow" });
}

/**
 * Records what the venues stated: each record that changes its market's current outcome
 * (`nextOutcome`) becomes a row appended to ClickHouse and the new current row in PostgreSQL, in
 * the order given (records of one market in the order they were received). Returns the changes
 * written. Both stores are written inside one PostgreSQL transaction: the current rows are updated
 * only where their change count is still the one read (two writers racing on a market: one wins,
 * the other's change is not appended), then the winners' rows are appended to ClickHouse before the
 * commit, so a failed append leaves PostgreSQL as it was and the next read retries.
 */
export async function recordResolutions(db: Db, writer: ClickHouseClient, records: readonly ResolutionRecord[]): Promise<ResolutionChange[]> {
  const written: ResolutionChange[] = [];
  for (let i = 0; i < records.length; i += WRITE_CHUNK) {
    written.push(...(await recordChunk(db, writer, records.slice(i, i + WRITE_CHUNK))));
  }
  return written;
}

async function recordChunk(db: Db, writer: ClickHouseClient, records: readonly ResolutionRecord[]): Promise<ResolutionChange[]> {
  const stored = await currentOutcomes(db, records);
  const running = new Map(stored);
  const changesByKey = new Map<string, ResolutionChange[]>();
  for (const record of records) {
    const key = keyOf(record.venue, record.venueMarketId);
    const next = nextOutcome(running.get(key), record);
    if (next === undefined) continue;
    running.set(key, next);
    const list = changesByKey.get(key) ?? [];
    const { determinedAt: _determined, settledAt: _settled, ...change } = record;
    list.push({ ...change, closedAt: next.closedAt, resolutionSource: next.resolutionSource });
    changesByKey.set(key, list);
  }
  if (changesByKey.size === 0) return [];
  const updates: ReturnType<typeof toJsonRow>[] = [];
  const inserts: ReturnType<typeof toJsonRow>[] = [];
  for (const key of changesByKey.keys()) {
    const next = running.get(key);
    if (next === undefined) continue;
    const prior = stored.get(key)?.changes ?? 0;
    (prior === 0 ? inserts : updates).push(toJsonRow(next, prior));
  }
  return db.transaction(async (tx) => {
    const won: Array<{ venue: string; venue_market_id: string }> = [];
    if (updates.length > 0) {
      won.push(
        ...resultRows<{ venue: string; venue_market_id: string }>(
          await tx.execute(sql`update ${marketOutcomes} o set
              market = r.market, outcome_ids = r.outcome_ids, state = r.state, venue_state = r.venue_state,
              winning_outcome_id = r.winning_outcome_id, settlement_value = r.settlement_value, closed_at = r.closed_at,
              determined_at = r.determined_at, settled_at = r.settled_at, venue_time = r.venue_time, received_at = r.received_at,
              source = r.source, resolution_source = r.resolution_source, changes = r.changes
            from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as ${recordsetType}
            where o.venue = r.venue and o.venue_market_id = r.venue_market_id and o.changes = r.prior
            returning o.venue, o.venue_market_id`),
        ),
      );
    }
    if (inserts.length > 0) {
      won.push(
        ...resultRows<{ venue: string; venue_market_id: string }>(
          await tx.execute(sql`insert into ${marketOutcomes} (${outcomeColumns})
            select ${outcomeColumns} from jsonb_to_recordset(${JSON.stringify(inserts)}::jsonb) as ${recordsetType}
            on conflict (venue, venue_market_id) do nothing
            returning venue, venue_market_id`),
        ),
      );
    }
    const changes = won.flatMap((row) => changesByKey.get(keyOf(row.venue, row.venue_market_id)) ?? []);
    changes.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    await appendResolutionChanges(writer, changes);
    return changes;
  });
}

/** A market that resolved (`determined` or `settled`, not voided), as the calibration reads it. */
export interface ResolvedMarket {
  venue: string;
  venueMarketId: string;
  market: string;
  outcomeIds: string[];
  state: "determined" | "settled";
  winningOutcomeId: string | null;
  settlementValue: number | null;
  closedAt: Date;
  determinedAt: Date | null;
  settledAt: Date | null;
  source: ResolutionSource;
}

/** Position after which `resolvedMarkets` continues: the last market of the previous page. */
export interface ResolvedMarketPosition {
  closedAt: Date;
  venue: string;
  venueMarketId: string;
}

/**
 * Markets that resolved with their close time in [since, until), ordered by (closedAt, venue,
 * venueMarketId), at most `limit`, after `after` when given (keyset paging). A market with no
 * stated close time is not listed: its horizons cannot be placed.
 */
export async function resolvedMarkets(
  db: Db,
  options: { venue?: readonly string[]; since: Date; until: Date; after?: ResolvedMarketPosition; limit: number },
): Promise<ResolvedMarket[]> {
  const venues =
    options.venue === undefined || options.venue.length === 0
      ? sql``
      : sql` and venue in (${sql.join(
          options.venue.map((venue) => sql`${venue}`),
          sql`, `,
        )})`;
  const after =
    options.after === undefined
      ? sql``
      : sql` and (closed_at, venue, venue_market_id) > (${options.after.closedAt.toISOString()}::timestamptz, ${options.after.venue}, ${options.after.venueMarketId})`;
  const rows = resultRows<RawOutcomeRow>(
    await db.execute(sql`select ${outcomeColumns} from ${marketOutcomes}
      where state in ('determined', 'settled') and closed_at >= ${options.since.toISOString()}::timestamptz
        and closed_at < ${options.until.toISOString()}::timestamptz${venues}${after}
      order by closed_at, venue, venue_market_id limit ${options.limit}`),
  );
  return rows.map((row) => {
    const o = fromRaw(row);
    return {
      venue: o.venue,
      venueMarketId: o.venueMarketId,
      market: o.market,
      outcomeIds: o.outcomeIds,
      state: o.state as "determined" | "settled",
      winningOutcomeId: o.winningOutcomeId,
      settlementValue: o.settlementValue,
      closedAt: o.closedAt ?? new Date(0),
      determinedAt: o.determinedAt,
      settledAt: o.settledAt,
      source: o.source,
    };
  });
}

/** Where `resolutionChanges` continues: the last change of the previous page. */
export type ResolutionChangePosition = [receivedMs: number, venue: string, market: string, venueMs: number, state: string];

/**
 * Every recorded change, in the order Brier learned them (received time, then venue, market,
 * venue time, state), filtered by venue, state and received time [since, until).
 */
export async function resolutionChanges(
  queries: ClickHouseClient,
  options: { venue?: string; state?: ResolutionState; since?: Date; until?: Date; after?: ResolutionChangePosition; limit: number },
): Promise<ResolutionChange[]> {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: options.limit };
  if (options.venue !== undefined) {
    where.push("venue = {venue:String}");
    params.venue = options.venue;
  } else {
    // The outcome table's primary key starts with venue; naming every venue lets its index (and force_primary_key) apply.
    where.push("venue != ''");
  }
  if (options.state !== undefined) {
    where.push("state = {state:String}");
    params.state = options.state;
  }
  if (options.since !== undefined) {
    where.push("received_time >= fromUnixTimestamp64Milli({since:Int64})");
    params.since = options.since.getTime();
  }
  if (options.until !== undefined) {
    where.push("received_time < fromUnixTimestamp64Milli({until:Int64})");
    params.until = options.until.getTime();
  }
  if (options.after !== undefined) {
    const [receivedMs, venue, market, venueMs, state] = options.after;
    where.push(
      "(toUnixTimestamp64Milli(received_time), venue, market, toUnixTimestamp64Milli(venue_time), state) > ({afterReceived:Int64}, {afterVenue:String}, {afterMarket:String}, {afterVenueTime:Int64}, {afterState:String})",
    );
    Object.assign(params, { afterReceived: receivedMs, afterVenue: venue, afterMarket: market, afterVenueTime: venueMs, afterState: state });
  }
  const result = await queries.query({
    query: `SELECT venue, market, venue_market_id, outcome_ids, state, venue_state, winning_outcome_id, settlement_value,
        toUnixTimestamp64Milli(closed_time) AS closed_ms, toUnixTimestamp64Milli(venue_time) AS venue_ms,
        toUnixTimestamp64Milli(received_time) AS received_ms, source, resolution_source, raw
      FROM ${outcomesTable}
      WHERE ${where.join(" AND ")}
      ORDER BY received_time, venue, market, venue_time, state
      LIMIT {limit:UInt32}`,
    query_params: params,
    format: "JSONEachRow",
  });
  const rows = await result.json<{
    venue: string;
    market: string;
    venue_market_id: string;
    outcome_ids: string[];
    state: ResolutionState;
    venue_state: string;
    winning_outcome_id: string | null;
    settlement_value: number | null;
    closed_ms: number | string | null;
    venue_ms: number | string;
    received_ms: number | string;
    source: ResolutionSource;
    resolution_source: string | null;
    raw: string;
  }>();
  return rows.map((row) => ({
    venue: row.venue,
    venueMarketId: row.venue_market_id,
    market: row.market,
    outcomeIds: row.outcome_ids,
    state: row.state,
    venueState: row.venue_state === "" ? null : row.venue_state,
    winningOutcomeId: row.winning_outcome_id,
    settlementValue: row.settlement_value === null ? null : Number(row.settlement_value),
    closedAt: row.closed_ms === null ? null : new Date(Number(row.closed_ms)),
    venueTime: new Date(Number(row.venue_ms)),
    receivedAt: new Date(Number(row.received_ms)),
    source: row.source,
    resolutionSource: row.resolution_source,
    raw: row.raw,
  }));
}
