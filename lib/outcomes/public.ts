import { sql, type SQL } from "drizzle-orm";
import { jsonNumber } from "@/lib/db/json-text";
import { marketOutcomes } from "@/lib/db/schema/market-outcomes";
import type { ResolutionChangePublic, ResolutionPublic } from "./shapes";
import type { ResolutionChange, ResolutionSource, ResolutionState } from "./types";

/*
 * The `resolution` of every market answer (docs/outcomes.md): built from the current outcome the
 * catalog's readers select with `resolutionColumn`, or, for a market without one, from what the
 * catalog itself says (pmxt-core's `closed` and `status`), learned by `catalog`.
 */


/** The current outcome as the catalog's readers select it (`resolutionColumn`), times as ISO text. */
export interface StoredResolution {
  state: ResolutionState;
  winningOutcomeId: string | null;
  settlementValue: number | null;
  closedAt: string | null;
  determinedAt: string | null;
  settledAt: string | null;
  venueState: string | null;
  resolutionSource: string | null;
  source: ResolutionSource;
  receivedAt: string;
}

const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The current outcome of the market (`venue`, `venueMarketId` columns of the outer query) as one JSON value, null when none: a primary-key lookup. */
export function resolutionColumn(venue: SQL | unknown, venueMarketId: SQL | unknown): SQL<StoredResolution | null> {
  const o = marketOutcomes;
  return sql<StoredResolution | null>`(select json_build_object('state', ${o.state}, 'winningOutcomeId', ${o.winningOutcomeId}, 'settlementValue', ${o.settlementValue},
    'closedAt', ${iso(sql`${o.closedAt}`)}, 'determinedAt', ${iso(sql`${o.determinedAt}`)}, 'settledAt', ${iso(sql`${o.settledAt}`)},
    'venueState', ${o.venueState}, 'resolutionSource', ${o.resolutionSource}, 'source', ${o.source}, 'receivedAt', ${iso(sql`${o.receivedAt}`)})
    from ${o} where ${o.venue} = ${venue} and ${o.venueMarketId} = ${venueMarketId})`;
}

const OPEN_STATUSES = new Set(["active", "open", "initialized", "inactive", "paused"]);

/** ASCII upper case to lower case: what `toLowerCase` does to any status that can equal an open one (they are ASCII). */
const asciiLower = (value: SQL) => sql`translate(${value}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;

/**
 * `toResolutionPublic` in SQL: the market's public `resolution` as JSON text, byte for byte what
 * `JSON.stringify(toResolutionPublic(...))` writes (lib/catalog/list.ts builds the listing's
 * answer in the database; lib/catalog/listing-json.test.ts compares both on both stores).
 * `venue`, `venueMarketId`, `closed` and `status` are the market's columns in the outer query.
 */
export function resolutionJson(venue: SQL | unknown, venueMarketId: SQL | unknown, closed: SQL | unknown, status: SQL | unknown): SQL<string> {
  const o = marketOutcomes;
  const open = sql.join([...OPEN_STATUSES].map((s) => sql.raw(`'${s}'`)), sql`, `);
  const fallbackState = sql`case when ${closed} then 'closed' when ${status} is null or ${asciiLower(sql`${status}`)} in (${open}) then 'open' else 'unknown' end`;
  return sql<string>`coalesce((select row_to_json(r)::text from (select ${o.state} as "state", ${o.winningOutcomeId} as "winningOutcomeId",
      ${jsonNumber(sql`${o.settlementValue}`)}::json as "settlementValue", ${iso(sql`${o.closedAt}`)} as "closedAt",
      ${iso(sql`${o.determinedAt}`)} as "determinedAt", ${iso(sql`${o.settledAt}`)} as "settledAt", ${o.venueState} as "venueState",
      ${o.resolutionSource} as "resolutionSource", ${o.source} as "learnedBy", ${o.source} = 'synthetic' as "synthetic",
      ${iso(sql`${o.receivedAt}`)} as "updatedAt"
    from ${o} where ${o.venue} = ${venue} and ${o.venueMarketId} = ${venueMarketId}) as r),
    (select row_to_json(r)::text from (select ${fallbackState} as "state", null::text as "winningOutcomeId", null::float8 as "settlementValue",
      null::text as "closedAt", null::text as "determinedAt", null::text as "settledAt", ${status} as "venueState",
      null::text as "resolutionSource", 'catalog' as "learnedBy", false as "synthetic", null::text as "updatedAt") as r))`;
}

/**
 * A market's public `resolution`: its stored outcome, or what the catalog says of it (pmxt-core's
 * `closed` flag: `closed`; an open status: `open`; else `unknown`), never a winner.
 */
export function toResolutionPublic(stored: StoredResolution | null | undefined, market: { closed: boolean; status: string | null }): ResolutionPublic {
  if (stored === null || stored === undefined) {
    const state: ResolutionState = market.closed ? "closed" : market.status === null || OPEN_STATUSES.has(market.status.toLowerCase()) ? "open" : "unknown";
    return { state, winningOutcomeId: null, settlementValue: null, closedAt: null, determinedAt: null, settledAt: null, venueState: market.status, resolutionSource: null, learnedBy: "catalog", synthetic: false, updatedAt: null };
  }
  return {
    state: stored.state,
    winningOutcomeId: stored.winningOutcomeId,
    settlementValue: stored.settlementValue === null ? null : Number(stored.settlementValue),
    closedAt: stored.closedAt,
    determinedAt: stored.determinedAt,
    settledAt: stored.settledAt,
    venueState: stored.venueState,
    resolutionSource: stored.resolutionSource,
    learnedBy: stored.source,
    synthetic: stored.source === "synthetic",
    updatedAt: stored.receivedAt,
  };
}


export function toResolutionChangePublic(change: Omit<ResolutionChange, "raw">): ResolutionChangePublic {
  return {
    venue: change.venue,
    market: change.market,
    venueMarketId: change.venueMarketId,
    outcomeIds: change.outcomeIds,
    state: change.state,
    venueState: change.venueState,
    winningOutcomeId: change.winningOutcomeId,
    settlementValue: change.settlementValue,
    closedAt: change.closedAt?.toISOString() ?? null,
    venueTime: change.venueTime.toISOString(),
    receivedAt: change.receivedAt.toISOString(),
    learnedBy: change.source,
    resolutionSource: change.resolutionSource,
    synthetic: change.source === "synthetic",
  };
}
