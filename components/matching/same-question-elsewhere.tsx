"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";
import { formatPrice } from "@/lib/format";
import type { z } from "zod";
import type { marketMatchesResponse } from "@/lib/matching/shapes";

type Body = z.infer<typeof marketMatchesResponse>;

/** A difference of two probability prices in cents, signed: +4¢ means the other venue is dearer. */
export function formatDifference(self: number | null | undefined, other: number | null | undefined): string {
  if (self === null || self === undefined || other === null || other === undefined) return "–";
  const cents = Math.round((other - self) * 1000) / 10;
  return `${cents > 0 ? "+" : cents < 0 ? "−" : ""}${Math.abs(cents)}¢`;
}

/**
 * "Same question elsewhere": what other venues list about this market's question, from
 * GET /v0/markets/{id}/matches (venue, title, relation, confidence with the reasoning on hover,
 * Yes prices side by side and their difference, links to both markets).
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
              <th>Venue</th>
              <th>Market</th>
              <th>Relation</th>
              <th className="num">Confidence</th>
              <th className="num">Yes here</th>
              <th className="num">Yes there</th>
              <th className="num">Difference</th>
            </tr>
          </thead>
          <tbody>
            {matches.data.data.matches.map((m) => (
              <tr key={m.market.marketId} data-relation={m.relation}>
                <td>
                  <span className="badge">{m.market.exchange}</span>
                </td>
                <td>
                  <Link href={`/markets/${m.market.marketId}`}>{m.market.title}</Link>
                  {m.market.outcomes[0] !== undefined && m.market.outcomes[0].label !== m.market.title && (
                    <span className="muted small"> · Yes = {m.market.outcomes[0].label}</span>
                  )}
                  {m.market.url !== null && (
                    <>
                      {" "}
                      <a className="small" href={m.market.url} target="_blank" rel="noreferrer">
                        on {m.market.exchange} ↗
                      </a>
                    </>
                  )}
                </td>
                <td>
                  <span className="badge">{m.relation}</span>
                </td>
                <td className="num" title={m.reasoning ?? ""} data-testid="match-confidence">
                  {Math.round(m.confidence * 100)}%
                </td>
                <td className="num">{formatPrice(matches.data.data.market.lastPrice)}</td>
                <td className="num">{formatPrice(m.market.lastPrice)}</td>
                <td className="num">{formatDifference(matches.data.data.market.lastPrice, m.market.lastPrice)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">Relations read from this market: subset = Yes here implies Yes there. Hover a confidence for what was compared.</p>
    </section>
  );
}
