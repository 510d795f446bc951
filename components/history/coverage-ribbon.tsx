"use client";
import { useQuery } from "@tanstack/react-query";
import { ErrorState } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";

interface CoverageAnswer {
  data: {
    assets: Array<{
      outcomeId: string;
      rowsByType: Record<string, number>;
      hours: Array<{ hour: number; condition: "available" | "degraded" | "missing" | "synthetic"; rows: number; incidents: number }>;
    }>;
  };
}

const colors = { available: "var(--up, #1a7f37)", degraded: "#e39b28", missing: "var(--muted, #8c959f)", synthetic: "#8250df" } as const;

/** The recorder's hourly condition for one outcome over 7 days (GET /v0/coverage), one cell per UTC hour. */
export function CoverageRibbon({ outcomeId }: { outcomeId: string }) {
  const coverage = useQuery({
    queryKey: ["coverage", outcomeId],
    queryFn: ({ signal }) => {
      const since = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 7 * 86_400_000 + 3_600_000;
      return getJson<CoverageAnswer>(`/v0/coverage?outcomeId=${encodeURIComponent(outcomeId)}&since=${since}`, signal);
    },
    refetchInterval: 5 * 60_000,
  });
  if (coverage.isPending) return null;
  if (coverage.isError) return <ErrorState error={coverage.error} title="Coverage could not be loaded" onRetry={() => void coverage.refetch()} />;
  const hours = coverage.data.data.assets[0]?.hours ?? [];
  const count = (condition: string) => hours.filter((h) => h.condition === condition).length;
  return (
    <section className="card" aria-labelledby="coverage-ribbon" data-testid="coverage-ribbon">
      <h2 id="coverage-ribbon">
        Recording coverage <span className="muted small">(last 7 days, one cell per UTC hour)</span>
      </h2>
      <div style={{ display: "flex", gap: 1, height: 14 }} role="img" aria-label={`${count("available")} hours available, ${count("degraded")} degraded, ${count("missing")} missing${count("synthetic") > 0 ? `, ${count("synthetic")} synthetic` : ""}`}>
        {hours.map((h) => (
          <span
            key={h.hour}
            data-condition={h.condition}
            title={`${new Date(h.hour).toISOString().slice(0, 13)}:00Z ${h.condition} · ${h.rows} rows${h.incidents > 0 ? ` · ${h.incidents} incidents` : ""}`}
            style={{ flex: 1, background: colors[h.condition], opacity: h.condition === "missing" ? 0.35 : 1 }}
          />
        ))}
      </div>
      <p className="muted small" style={{ margin: "0.4rem 0 0" }}>
        <span style={{ color: colors.available }}>■</span> available {count("available")} · <span style={{ color: colors.degraded }}>■</span> degraded {count("degraded")} ·{" "}
        <span style={{ color: colors.missing }}>■</span> missing {count("missing")}
        {count("synthetic") > 0 ? (
          <>
            {" "}
            · <span style={{ color: colors.synthetic }}>■</span> synthetic {count("synthetic")}
          </>
        ) : null}{" "}
        — degraded: an incident touched the hour; missing: recorder down or the outcome not subscribed
        {count("synthetic") > 0 ? "; synthetic: a demo history written by admin demo-ticks, not recorded from a venue" : ""}.
      </p>
    </section>
  );
}
