"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { MarketSide, MatchConfidence, MatchReasoning } from "./match-parts";
import { PairSpreadLink } from "@/components/spreads/pair-link";
import { getJson } from "@/lib/browser/api-client";
import { categories } from "@/lib/catalog/categories";
import { formatPrice } from "@/lib/format";
import type { z } from "zod";
import type { matchedPairsResponse } from "@/lib/matching/shapes";

type Body = z.infer<typeof matchedPairsResponse>;

const relationChoices = ["identity", "subset", "superset", "overlap", "disjoint"] as const;

/**
 * The Compare page: matched pairs across venues from GET /v0/matched-markets, filtered by
 * relation, category, minimum confidence and minimum price difference, largest difference first.
 * Each side links to its market page and says what Yes stands for on it; each pair shows its
 * confidence as a probability, its reasoning, and for an overlap why it is not an identity.
 */
export function CompareView({ venuesWithMarkets }: { venuesWithMarkets: Array<{ venue: string; open: number }> }) {
  const [relation, setRelation] = useState<(typeof relationChoices)[number]>("identity");
  const [category, setCategory] = useState("");
  const [minConfidence, setMinConfidence] = useState("0.9");
  const [minDifferenceCents, setMinDifferenceCents] = useState("0");
  const params = new URLSearchParams({ relations: relation, limit: "200" });
  if (category !== "") params.set("category", category);
  if (Number(minConfidence) > 0) params.set("minConfidence", String(Math.min(1, Math.max(0, Number(minConfidence)))));
  const minDifference = Math.min(100, Math.max(0, Number(minDifferenceCents) || 0)) / 100;
  if (minDifference > 0) {
    params.set("minDifference", String(minDifference));
    params.set("maxDifference", "1");
  }
  const pairs = useQuery({
    queryKey: ["matched-markets", params.toString()],
    queryFn: ({ signal }) => getJson<Body>(`/v0/matched-markets?${params.toString()}`, signal),
  });

  return (
    <div className="stack">
      <h1>Compare venues</h1>
      <form className="row card" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>
          Relation
          <select value={relation} onChange={(e) => setRelation(e.target.value as (typeof relationChoices)[number])} data-testid="compare-relation">
            {relationChoices.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">All</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          Min confidence
          <input type="text" inputMode="decimal" value={minConfidence} onChange={(e) => setMinConfidence(e.target.value)} size={5} />
        </label>
        <label>
          Min difference (¢)
          <input type="text" inputMode="decimal" value={minDifferenceCents} onChange={(e) => setMinDifferenceCents(e.target.value)} size={5} />
        </label>
      </form>
      {pairs.isPending ? (
        <SkeletonRows rows={6} />
      ) : pairs.isError ? (
        <ErrorState error={pairs.error} title="Matched pairs could not be loaded" onRetry={() => void pairs.refetch()} />
      ) : pairs.data.data.length === 0 ? (
        <EmptyState>
          {venuesWithMarkets.length < 2 ? (
            <span data-testid="compare-one-venue">
              No matched pairs: matching pairs markets of two venues, and the catalog holds open markets of{" "}
              {venuesWithMarkets.length === 0
                ? "no venue yet"
                : `only ${venuesWithMarkets.map((v) => `${v.venue} (${v.open})`).join(", ")}`}
              . The other venues have not been ingested (offline, or not polled yet): the Status page says why.
            </span>
          ) : (
            "No matched pairs with these filters."
          )}
        </EmptyState>
      ) : (
        <section className="card">
          <table className="data" data-testid="compare-table">
            <thead>
              <tr>
                <th>Market A</th>
                <th className="num">Yes A</th>
                <th>Market B</th>
                <th className="num">Yes B</th>
                <th className="num">Difference</th>
                <th>Relation</th>
                <th className="num" title="The fitted probability that the relation is right">
                  Probability
                </th>
              </tr>
            </thead>
            {pairs.data.data.map((p) => (
              <tbody key={`${p.marketA.marketId}|${p.marketB.marketId}`} data-testid="compare-pair" data-relation={p.relation}>
                <tr>
                  <td>
                    <MarketSide market={p.marketA} />
                  </td>
                  <td className="num">{formatPrice(p.priceA)}</td>
                  <td>
                    <MarketSide market={p.marketB} />
                  </td>
                  <td className="num">{formatPrice(p.priceB)}</td>
                  <td className="num">{formatPrice(p.priceDifference)}</td>
                  <td>
                    <span className="badge">{p.relation}</span> <PairSpreadLink {...polymarketFirst(p.marketA, p.marketB)} />
                  </td>
                  <td className="num">
                    <MatchConfidence confidence={p.confidence} relation={p.relation} />
                  </td>
                </tr>
                <tr className="match-why">
                  <td colSpan={7}>
                    <MatchReasoning relation={p.relation} reasoning={p.reasoning} differences={p.differences} ruleDifferences={p.ruleDifferences} venueA={p.venueA} venueB={p.venueB} />
                  </td>
                </tr>
              </tbody>
            ))}
          </table>
        </section>
      )}
    </div>
  );
}

/** The pair page's sides in the order the docs use (docs/spreads.md): Polymarket as A, whichever side the match stored first. */
function polymarketFirst(a: { marketId: string; exchange: string }, b: { marketId: string; exchange: string }): { a: string; b: string } {
  return b.exchange === "polymarket" && a.exchange !== "polymarket" ? { a: b.marketId, b: a.marketId } : { a: a.marketId, b: b.marketId };
}
