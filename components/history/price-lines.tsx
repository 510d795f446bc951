"use client";
import { useQuery } from "@tanstack/react-query";
import { LineChart } from "@/components/charts/line-chart";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";

interface PricesAnswer {
  data: { venue: string; outcomes: Array<{ outcomeId: string; label: string; candles: Array<{ time: number; close: number }> }> };
}

/**
 * A price line per outcome from the catalog's price snapshots (GET /v0/markets/{id}/prices,
 * hourly closes over 7 days): price history for every venue and every plan.
 */
export function PriceLines({ marketId }: { marketId: string }) {
  const prices = useQuery({
    queryKey: ["market-prices", marketId],
    queryFn: ({ signal }) => getJson<PricesAnswer>(`/v0/markets/${encodeURIComponent(marketId)}/prices?interval=1h`, signal),
    refetchInterval: 60_000,
  });
  const series =
    prices.data?.data.outcomes
      .filter((o) => o.candles.length > 0)
      .map((o) => ({ name: o.label, points: o.candles.map((c) => ({ time: c.time / 1000, value: c.close })) })) ?? [];
  return (
    <section className="card" aria-labelledby="price-history" data-testid="price-lines">
      <h2 id="price-history">
        Price history <span className="muted small">(catalog snapshots, hourly, last 7 days)</span>
      </h2>
      {prices.isPending ? (
        <SkeletonRows rows={3} />
      ) : prices.isError ? (
        <ErrorState error={prices.error} title="Price history could not be loaded" onRetry={() => void prices.refetch()} />
      ) : series.length === 0 ? (
        <p className="muted" data-testid="price-lines-empty">No price snapshots yet: each catalog poll adds one per outcome.</p>
      ) : (
        <LineChart series={series} label={`Hourly prices of ${series.map((s) => s.name).join(", ")}`} format="cents" small testId="price-lines-chart" />
      )}
    </section>
  );
}
