"use client";
import Link from "next/link";
import { formatProbability, whyNotIdentity, yesStandsFor } from "@/lib/matching/reasoning";
import { marketTitle } from "@/lib/format";
import type { DifferencePublic, RuleDifferencePublic } from "@/lib/matching/shapes";

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

const termNames: Record<RuleDifferencePublic["term"], string> = {
  trigger: "What counts",
  act: "The act required",
  stage: "Stage of the contest",
  conditions: "Added condition",
  rank: "Place required",
  observation: "When the value is read",
  deadline: "Deadline",
  deadlineZone: "Deadline time zone",
  bound: "Bound",
  seats: "Seats required",
  members: "Coalition members",
  source: "Settlement source",
  station: "Station",
  windowStart: "Start of the window",
};

/** The rule terms both markets state differently, each side's own wording side by side. */
export function RuleDifferences({ differences, venueA, venueB }: { differences: readonly RuleDifferencePublic[]; venueA: string; venueB: string }) {
  if (differences.length === 0) return null;
  return (
    <table className="rule-differences small" data-testid="rule-differences">
      <thead>
        <tr>
          <th>Rules differ</th>
          <th>{venueA}</th>
          <th>{venueB}</th>
        </tr>
      </thead>
      <tbody>
        {differences.map((d) => (
          <tr key={d.term} data-testid="rule-difference" data-term={d.term}>
            <td>{termNames[d.term]}</td>
            <td>{d.a}</td>
            <td>{d.b}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The reasoning, always visible; for an overlap the difference that keeps it from being an
 * identity; and the rule terms the two markets state differently, side by side.
 */
export function MatchReasoning({
  relation,
  reasoning,
  differences = [],
  ruleDifferences = [],
  venueA = "this market",
  venueB = "the other",
}: {
  relation: string;
  reasoning: string | null;
  differences?: readonly DifferencePublic[];
  ruleDifferences?: readonly RuleDifferencePublic[];
  venueA?: string;
  venueB?: string;
}) {
  const whyNot = whyNotIdentity(relation, differences, venueA, venueB);
  return (
    <div className="small" data-testid="match-reasoning">
      {whyNot !== null && (
        <div data-testid="why-not-identity">
          <strong>Why not identity:</strong> {whyNot}
        </div>
      )}
      <RuleDifferences differences={ruleDifferences} venueA={venueA} venueB={venueB} />
      <div className="muted">{reasoning ?? "No reasoning recorded."}</div>
    </div>
  );
}
