"use client";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "@/lib/browser/api-client";

interface SparklineAnswer {
  data: Array<{ marketId: string; outcomeId: string; points: Array<[number, number]> }>;
}

/** One request for a page of rows (GET /v0/prices/sparklines); every row's Sparkline shares it. */
function useSparklines(marketIds: readonly string[]) {
  const ids = marketIds.slice(0, 100).join(",");
  return useQuery({
    queryKey: ["sparklines", ids],
    queryFn: ({ signal }) => getJson<SparklineAnswer>(`/v0/prices/sparklines?marketIds=${encodeURIComponent(ids)}`, signal),
    enabled: ids !== "",
    staleTime: 60_000,
  });
}

const WIDTH = 96;
const HEIGHT = 24;

/**
 * Seven days of the first outcome's hourly closes from the catalog's price snapshots, as an inline
 * SVG line (no chart library on the catalog page). `page` is the ids of every row on the page.
 */
export function Sparkline({ marketId, page }: { marketId: string; page: readonly string[] }) {
  const sparklines = useSparklines(page);
  const points = sparklines.data?.data.find((s) => s.marketId === marketId)?.points ?? [];
  if (points.length === 0) return <span className="muted small" data-testid="sparkline-empty" aria-label="No price history yet" />;
  const times = points.map(([t]) => t);
  const prices = points.map(([, p]) => p);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [lo, hi] = [Math.min(...prices), Math.max(...prices)];
  const x = (t: number) => (t1 === t0 ? WIDTH : ((t - t0) / (t1 - t0)) * (WIDTH - 2) + 1);
  const y = (p: number) => (hi === lo ? HEIGHT / 2 : HEIGHT - 2 - ((p - lo) / (hi - lo)) * (HEIGHT - 4));
  const path = points.map(([t, p], i) => `${i === 0 ? "M" : "L"}${x(t).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
  const first = prices[0] ?? 0;
  const last = prices[prices.length - 1] ?? 0;
  const label = `7-day price: ${Math.round(first * 100)}¢ to ${Math.round(last * 100)}¢ (${points.length} hourly closes)`;
  return (
    <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-testid="sparkline" data-points={points.length} style={{ display: "block", marginTop: 4 }}>
      <title>{label}</title>
      {points.length === 1 ? (
        <circle cx={x(times[0] ?? 0)} cy={y(first)} r={2} fill="currentColor" />
      ) : (
        <path d={path} fill="none" stroke={last >= first ? "var(--up, #1a7f37)" : "var(--down, #cf222e)"} strokeWidth={1.5} />
      )}
    </svg>
  );
}
