"use client";
import { useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { MarketSide, MatchConfidence, MatchReasoning } from "./match-parts";
import { PairSpreadLink } from "@/components/spreads/pair-link";
import { getJson } from "@/lib/browser/api-client";
import { formatPrice } from "@/lib/format";
import type { z } from "zod";
import type { marketMatchesResponse } from "@/lib/matching/shapes";
import { PairOutcomesNote } from "./pair-outcomes";

type Body = z.infer<typeof marketMatchesResponse>;

/** A difference of two probability prices in cents, signed: +4¢ means the other venue is dearer. */
export function formatDifference(self: number | null | undefined, other: number | null | undefined): string {
  if (self === null || self === undefined || other === null || other === undefined) return "–";
  const cents = Math.round((other - self) * 1000) / 10;
  return `${cents > 0 ? "+" : cents < 0 ? "−" : ""}${Math.abs(cents)}¢`;
}

type Matched = Body["data"]["matches"][number]["market"];

/** The other venue's best bid/ask and where they came from, on hover of its Yes price. */
function bookTitle(market: Matched): string {
  if (market.priceSource === undefined) return "";
  const bid = formatPrice(market.bestBid);
  const ask = formatPrice(market.bestAsk);
  return market.priceSource === "recorder" || market.priceSource === "venue"
    ? `Bid ${bid} / ask ${ask} (${market.priceSource === "recorder" ? "Brier's live book" : "the venue's book"})`
    : `No bid/ask: ${market.priceSource.replaceAll("_", " ")}`;
}

/**
 * "Same question elsewhere": what other venues list about this market's question, from
 * GET /v0/markets/{id}/matches: venue, title and what Yes stands for, relation, confidence as a
 * probability with its reasoning (and for an overlap why it is not an identity), Yes prices side by
 * side and their difference, links to both markets.
 */
export function SameQuestionElsewhere({ marketId }: { marketId: string }) {
  const matches = useQuery({
    queryKey: ["market-matches", marketId],
    queryFn: ({ signal }) => getJson<Body>(`/v0/markets/${encodeURIComponent(marketId)}/matches?includePrices=true&limit=20`, signal),
  });
  return (
    <section className="card" aria-labelledby="elsewhere-title" data-testid="same-question-elsewhere">
      <h2 id="elsewhere-title">Same question elsewhere</h2>
      {matches.isPending ? (
        <SkeletonRows rows={2} />
      ) : matches.isError ? (
        <ErrorState error={matches.error} title="Matches could not be loaded" onRetry={() => void matches.refetch()} />
      ) : matches.data.data.matches.length === 0 ? (
        <EmptyState>No other venue lists this question (or a related one) in the catalog.</EmptyState>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th colSpan={2}>Market</th>
              <th>Relation</th>
              <th className="num" title="The fitted probability that the relation is right">
                Probability
              </th>
              <th className="num">Yes here</th>
              <th className="num">Yes there</th>
              <th className="num">Difference</th>
            </tr>
          </thead>
          {matches.data.data.matches.map((m) => (
            <tbody key={m.market.marketId} data-relation={m.relation}>
              <tr>
                <td colSpan={2}>
                  <MarketSide market={m.market} venueLink />
                </td>
                <td>
                  <span className="badge">{m.relation}</span> <PairSpreadLink a={matches.data.data.market.marketId} b={m.market.marketId} /> <PairOutcomesNote outcomes={m.outcomes} relation={m.relation} />
                </td>
                <td className="num">
                  <MatchConfidence confidence={m.confidence} relation={m.relation} />
                </td>
                <td className="num">{formatPrice(matches.data.data.market.lastPrice)}</td>
                <td className="num" title={bookTitle(m.market)}>
                  {formatPrice(m.market.lastPrice)}
                </td>
                <td className="num">{formatDifference(matches.data.data.market.lastPrice, m.market.lastPrice)}</td>
              </tr>
              <tr className="match-why">
                <td colSpan={7}>
                  <MatchReasoning relation={m.relation} reasoning={m.reasoning} differences={m.differences} ruleDifferences={m.ruleDifferences} venueA={`${matches.data.data.market.exchange} (this market)`} venueB={m.market.exchange} />
                </td>
              </tr>
            </tbody>
          ))}
        </table>
      )}
      <p className="muted small">Relations read from this market: subset = Yes here implies Yes there. Probability: how often a match with this evidence was right on labelled pairs.</p>
    </section>
  );
}
