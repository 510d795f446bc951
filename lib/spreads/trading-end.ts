import type { PairSide } from "./pairs";

/** The states in which a market still trades (docs/outcomes.md): any other state ends its spread. */
const TRADING_STATES: ReadonlySet<string> = new Set(["open", "unknown"]);

/**
 * When the side's market stopped trading, as its recorded outcome states it (lib/outcomes): the
 * earliest of when trading closed, the result was determined and it settled, or, where the venue
 * stated none of them, when that state began. Undefined while the market trades (or Brier has no
 * outcome for it).
 */
export function tradingEndOf(side: Pick<PairSide, "outcome">): number | undefined {
  const outcome = side.outcome;
  if (outcome === undefined || TRADING_STATES.has(outcome.state)) return undefined;
  const stated = [outcome.closedAt, outcome.determinedAt, outcome.settledAt].flatMap((at) => (at === null ? [] : [at.getTime()]));
  return stated.length > 0 ? Math.min(...stated) : outcome.venueTime.getTime();
}
