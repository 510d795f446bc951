/*
 * The outcome of a market, as Brier records it (docs/outcomes.md): the vocabulary every reader
 * (lib/recorder/<venue>/outcomes.ts, the demo) maps its venue's words to, and the rows of both
 * stores (PostgreSQL's current outcome, ClickHouse's changes).
 */

/** Where a market stands. Never inferred from a price: each is what the venue said (docs/outcomes.md). */
export const resolutionStates = ["open", "closed", "proposed", "disputed", "determined", "settled", "voided", "unknown"] as const;
export type ResolutionState = (typeof resolutionStates)[number];

export function isResolutionState(value: string): value is ResolutionState {
  return (resolutionStates as readonly string[]).includes(value);
}

/**
 * How Brier learned it: a REST read (`rest`), Kalshi's historical endpoint (`historical`), a
 * push channel (`push`), pmxt-core's status only (`catalog`), the offline demo (`synthetic`).
 */
export const resolutionSources = ["rest", "historical", "push", "catalog", "synthetic"] as const;
export type ResolutionSource = (typeof resolutionSources)[number];

/** What every statement of a market's outcome carries (a reader's record, the current row, a change). */
export interface OutcomeFacts {
  venue: string;
  /** The catalog's venue-native id (`markets.venue_market_id`). */
  venueMarketId: string;
  /** The books key (the tick tables' `market`). */
  market: string;
  /** The market's outcome ids in the venue's order (the catalog's `outcomeId`s). */
  outcomeIds: string[];
  state: ResolutionState;
  /** The venue's own word for the state, null when it has none. */
  venueState: string | null;
  /** One of `outcomeIds`, null when the venue named none. */
  winningOutcomeId: string | null;
  /** Payout per share of `outcomeIds[0]`, 0..1 dollars; null until stated. */
  settlementValue: number | null;
  /** When trading closed, as the venue states it; null for an open market or when unstated. */
  closedAt: Date | null;
  /** When this state began, as the venue states it (or the closest time it states). */
  venueTime: Date;
  receivedAt: Date;
  source: ResolutionSource;
  /** The source the venue names for the result. */
  resolutionSource: string | null;
}

/** What a reader hands in: one market's state as one venue message stated it. */
export interface ResolutionRecord extends OutcomeFacts {
  /** When the result was determined, when the venue states it (else the change's venue time is used). */
  determinedAt?: Date | null;
  /** When it settled, when the venue states it (else the change's venue time is used). */
  settledAt?: Date | null;
  /** The venue's payload that stated it, JSON text. */
  raw: string;
}

/** The current outcome of one market (PostgreSQL `market_outcomes`). */
export interface CurrentOutcome extends OutcomeFacts {
  determinedAt: Date | null;
  settledAt: Date | null;
  /** Changes recorded so far (rows in ClickHouse's `market_outcomes`). */
  changes: number;
}

/** One change (a ClickHouse `market_outcomes` row, and a live `resolution` event). */
export interface ResolutionChange extends OutcomeFacts {
  raw: string;
}
