"use client";
import Link from "next/link";
import { formatProbability, whyNotIdentity, yesStandsFor } from "@/lib/matching/reasoning";
import { marketTitle } from "@/lib/format";

interface SideMarket {
  marketId: string;
  title: string;
  exchange: string;
  url: string | null;
  outcomes: ReadonlyArray<{ label: string }>;
}

/** One side of a pair: venue, title linking to its market page, and what Yes stands for on it. */
export function MarketSide({ market, venueLink = false }: { market: SideMarket; venueLink?: boolean }) {
  const yes = yesStandsFor(market);
  return (
    <div className="match-side">
      <span className="badge">{market.exchange}</span> <Link href={`/markets/${market.marketId}`}>{marketTitle(market.title)}</Link>
      {venueLink && market.url !== null && (
        <>
          {" "}
          <a className="small" href={market.url} target="_blank" rel="noreferrer">
            on {market.exchange} ↗
          </a>
        </>
      )}
      <div className="muted small" data-testid="yes-stands-for">
        Yes = {yes ?? "the question as titled"}
      </div>
    </div>
  );
}

/** The confidence as the fitted probability it is, with its meaning on hover. */
export function MatchConfidence({ confidence, relation }: { confidence: number; relation: string }) {
  return (
    <span title={`Fitted probability that "${relation}" is the right relation (docs/matching.md, Confidence)`} data-testid="match-confidence">
      {formatProbability(confidence)}
    </span>
  );
}

/** The reasoning, always visible, and for an overlap the difference that keeps it from being an identity. */
export function MatchReasoning({ relation, reasoning }: { relation: string; reasoning: string | null }) {
  const whyNot = whyNotIdentity(relation, reasoning);
  return (
    <div className="small" data-testid="match-reasoning">
      {whyNot !== null && (
        <div data-testid="why-not-identity">
          <strong>Why not identity:</strong> {whyNot}
        </div>
      )}
      <div className="muted">{reasoning ?? "No reasoning recorded."}</div>
    </div>
  );
}
