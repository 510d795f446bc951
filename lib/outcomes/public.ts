import { sql, type SQL } from "drizzle-orm";
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

/**
 * The version of what `resolutionColumn` reads for the same market: its row's `xmin` (every write
 * of the row makes a new version with its transaction's id) as text, null when it has none. The
 * listing keeps a market's public JSON while this and its catalog rows' versions stay the same
 * (lib/catalog/list.ts, `marketListingJson`).
 */
export function resolutionVersion(venue: SQL | unknown, venueMarketId: SQL | unknown): SQL<string | null> {
  const o = marketOutcomes;
  return sql<string | null>`(select ${o}.xmin::text from ${o} where ${o.venue} = ${venue} and ${o.venueMarketId} = ${venueMarketId})`;
}

const OPEN_STATUSES = new Set(["active", "open", "initialized", "inactive", "paused"]);

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
