import "server-only";
import { SYNTHETIC_STATUS } from "@/lib/catalog/assets";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import type { MarketPublic } from "@/lib/catalog/shapes";
import type { Db } from "@/lib/db";
import { AppError, InvalidParameterError } from "@/lib/errors";
import { tickSourceOf, type TickSource } from "@/lib/history/outcomes";
import { currentMatchOf } from "@/lib/matching/pair-store";
import type { Relation } from "@/lib/matching/relations";
import { venueOfTable } from "@/lib/recorder/registry";
import type { CurrentOutcome } from "@/lib/outcomes/types";
import type { FeeSubject } from "./fees";

/** One side of a pair: an outcome whose recorded book is read. */
export interface PairSide extends FeeSubject {
  marketId: string;
  exchange: string;
  title: string;
  outcomeId: string;
  outcomeLabel: string;
  /** Where its rows are. */
  source: TickSource;
  /** Whose recorder's journal says when it was recorded. */
  recorder: string;
  /** Polymarket's condition id (the catalog's contract address), for reading the market's fee. */
  contractAddress: string | null;
  /** A synthetic demo market, which no venue lists (its fee is never read from a venue). */
  synthetic: boolean;
  /** The market's recorded outcome (lib/outcomes), where one is. */
  outcome?: CurrentOutcome;
}

export interface ResolvedPair {
  a: PairSide;
  b: PairSide;
  relation: Relation | null;
  confidence: number | null;
  pricing: "identity" | "complement";
}

function sideOf(market: MarketPublic, outcomeId: string, label: string): PairSide {
  const source = tickSourceOf({ venue: market.exchange, venueMarketId: market.venueMarketId, contractAddress: market.contractAddress });
  const recorder = source === undefined ? undefined : venueOfTable(source.table);
  if (source === undefined || recorder === undefined) {
    throw new AppError("not_found", `Market '${market.venueMarketId}' is on ${market.exchange}, whose order books are not recorded.`, { resource: "order book" });
  }
  return {
    marketId: market.marketId,
    exchange: market.exchange,
    venue: market.exchange,
    venueMarketId: market.venueMarketId,
    title: market.title,
    category: market.category,
    outcomeId,
    outcomeLabel: label,
    source,
    recorder: recorder.id,
    contractAddress: market.contractAddress,
    synthetic: market.status === SYNTHETIC_STATUS,
  };
}

/** The outcome a path segment names: the outcome itself when it is an outcome id, else the market's Yes (its first outcome). */
function namedOutcome(market: MarketPublic, ref: string): { outcomeId: string; label: string; explicit: boolean } {
  const named = market.outcomes.find((outcome) => outcome.outcomeId === ref);
  if (named !== undefined) return { outcomeId: named.outcomeId, label: named.label, explicit: true };
  const yes = market.outcomes[0];
  if (yes === undefined) throw new AppError("not_found", `Market '${market.venueMarketId}' has no outcomes.`, { resource: "outcome" });
  return { outcomeId: yes.outcomeId, label: yes.label, explicit: false };
}

/**
 * The pair two path segments name (docs/spreads.md, "The pair"): each a market (its Yes outcome)
 * or an outcome id. A stored `disjoint` match is priced as a complement (B's other outcome pays
 * when A's does) unless `pricing` says otherwise.
 */
export async function resolvePair(db: Db, refA: string, refB: string, pricing?: "identity" | "complement"): Promise<ResolvedPair> {
  const [marketA, marketB] = await Promise.all([getMarketOrThrow(db, refA), getMarketOrThrow(db, refB)]);
  if (marketA.marketId === marketB.marketId) throw new InvalidParameterError("b", "a and b must be two different markets");
  const outcomeA = namedOutcome(marketA, refA);
  let outcomeB = namedOutcome(marketB, refB);
  const match = await currentMatchOf(db, marketA.marketId, marketB.marketId);
  const chosen = pricing ?? (match?.relation === "disjoint" ? "complement" : "identity");
  if (chosen === "complement") {
    if (marketB.outcomes.length !== 2) throw new InvalidParameterError("pricing", "complement pricing needs a binary market on side b");
    const other = marketB.outcomes.find((outcome) => outcome.outcomeId !== outcomeB.outcomeId);
    if (other === undefined) throw new InvalidParameterError("pricing", "side b has no other outcome");
    outcomeB = { outcomeId: other.outcomeId, label: other.label, explicit: outcomeB.explicit };
  }
  return {
    a: sideOf(marketA, outcomeA.outcomeId, outcomeA.label),
    b: sideOf(marketB, outcomeB.outcomeId, outcomeB.label),
    relation: match?.relation ?? null,
    confidence: match?.confidence ?? null,
    pricing: chosen,
  };
}
