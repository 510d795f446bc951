"use client";
import Link from "next/link";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";
import type { CalibrationMarketsResponse } from "@/lib/calibration/shapes";
import { formatDateTime } from "@/lib/format";
import { score } from "./calibration-view";

const parameters = ["venue", "horizon", "since", "until", "bins", "bin", "category", "source"] as const;
const pct = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);

/**
 * The markets behind one calibration figure (GET /v0/calibration/markets with the figure's own
 * parameters): each market's forecast, where and when it was priced, and what Yes settled at,
 * linked to the market's page; 100 a page.
 */
export function CalibrationMarkets({ search }: { search: Record<string, string | undefined> }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const query = new URLSearchParams();
  for (const name of parameters) {
    const value = search[name];
    if (value !== undefined && value !== "") query.set(name, value);
  }
  const cursor = cursors[cursors.length - 1];
  if (cursor !== undefined) query.set("cursor", cursor);
  const page = useQuery({
    queryKey: ["calibration-markets", query.toString()],
    queryFn: ({ signal }) => getJson<CalibrationMarketsResponse>(`/v0/calibration/markets?${query.toString()}`, signal),
  });
  const bins = Number(search.bins ?? 10);
  const bin = search.bin === undefined ? undefined : Number(search.bin);
  const rows = page.data?.data ?? [];
  const brier = rows.length === 0 ? null : rows.reduce((sum, r) => sum + (r.forecast - r.outcome) ** 2, 0) / rows.length;
  return (
    <div className="stack">
      <p className="small">
        <Link href="/calibration">← Calibration</Link>
      </p>
      <h1 data-testid="calibration-markets-title">
        {search.venue ?? "?"}, {search.horizon ?? "?"} before the close
        {search.category !== undefined ? `, ${search.category}` : ""}
        {bin !== undefined ? `, forecasts ${((bin / bins) * 100).toFixed(0)}–${(((bin + 1) / bins) * 100).toFixed(0)}%` : ""}
        {search.source !== undefined ? `, from the ${search.source === "book" ? "recorded book" : "catalog price history"}` : ""}
      </h1>
      {page.isPending ? (
        <SkeletonRows rows={8} />
      ) : page.isError ? (
        <ErrorState error={page.error} title="These markets could not be loaded" onRetry={() => void page.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState>No market behind this figure.</EmptyState>
      ) : (
        <section className="card">
          <p className="muted small">
            {rows.length} market{rows.length === 1 ? "" : "s"} on this page; their Brier score <span data-testid="calibration-markets-brier">{score(brier)}</span>.
          </p>
          <table className="data" data-testid="calibration-markets-table">
            <thead>
              <tr>
                <th>Market</th>
                <th>Closed</th>
                <th>Priced at</th>
                <th>Source</th>
                <th className="num">Forecast</th>
                <th className="num">Taker&apos;s price</th>
                <th className="num">Yes settled</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.marketId} data-testid="calibration-market-row">
                  <td>
                    <Link href={`/markets/${row.marketId}`}>{row.title ?? row.venueMarketId}</Link>
                  </td>
                  <td>{formatDateTime(row.closedAt)}</td>
                  <td title={`forecast instant ${row.forecastAt}`}>{formatDateTime(row.pricedAt)}</td>
                  <td>{row.source === "book" ? "book mid" : "catalog price"}</td>
                  <td className="num">{pct(row.forecast)}</td>
                  <td className="num">{pct(row.takerPrice)}</td>
                  <td className="num">{row.outcome === 1 ? "Yes" : row.outcome === 0 ? "No" : pct(row.outcome)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="row">
            <button type="button" className="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Previous
            </button>
            <button type="button" className="button" disabled={page.data.meta.nextCursor === null} onClick={() => setCursors((c) => (page.data.meta.nextCursor === null ? c : [...c, page.data.meta.nextCursor]))}>
              Next
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
