"use client";
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { NotFoundState } from "@/components/ui/not-found-state";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { SameQuestionElsewhere } from "@/components/matching/same-question-elsewhere";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { ApiError, getJson } from "@/lib/browser/api-client";
import { marketChartSearch, parseMarketChartState, type MarketChartState } from "@/lib/browser/market-state";
import { recordedMarketIn, type RecordingRule } from "@/lib/recorder/locate";
import { CoverageRibbon } from "@/components/history/coverage-ribbon";
import { PriceLines } from "@/components/history/price-lines";
import { HistoryCharts } from "./history-charts";
import { Identifiers } from "./identifiers";
import { StreamedOrderBook } from "@/components/streams/streamed-order-book";
import { MarketHeader } from "./market-header";
import { OutcomesTable } from "./outcomes-table";

/**
 * The market page: the catalog record from /v0/markets/{id}, then one card per concern, top to
 * bottom: header, outcomes + identifiers, live book, order-book history (enterprise). The charted
 * outcome, interval and range live in the URL.
 */
export function MarketView({ id, historyAllowed, plan, recording }: { id: string; historyAllowed: boolean; plan: string; recording: readonly RecordingRule[] }) {
  const market = useQuery({
    queryKey: ["market", id],
    queryFn: ({ signal }) => getJson<{ data: MarketPublic }>(`/v0/markets/${encodeURIComponent(id)}`, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // Read from the URL once; afterwards the page's state leads and the URL follows (replace), so a
  // control shows its new value at once instead of waiting for the router.
  const [chart, setChartState] = useState<MarketChartState>(() =>
    parseMarketChartState(new URLSearchParams(params.toString()), Number.MAX_SAFE_INTEGER),
  );
  const setChart = (next: Partial<MarketChartState>) => {
    const merged = { ...chart, ...next };
    setChartState(merged);
    router.replace(`${pathname}${marketChartSearch(merged)}`, { scroll: false });
  };
  // Start downloading the chart library while the market record loads, not after.
  useEffect(() => {
    if (historyAllowed) void import("lightweight-charts");
  }, [historyAllowed]);

  if (market.isPending) return <SkeletonRows rows={8} height={60} />;
  if (market.isError) {
    if (market.error instanceof ApiError && market.error.status === 404) return <NotFoundState what="market" id={id} />;
    return <ErrorState error={market.error} title="This market could not be loaded" onRetry={() => void market.refetch()} />;
  }
  const m = market.data.data;
  const charted = chart.outcome < m.outcomes.length ? chart.outcome : 0;
  const outcome = m.outcomes[charted];
  const recorded = recordedMarketIn(recording, { venue: m.exchange, venueMarketId: m.venueMarketId, contractAddress: m.contractAddress });
  const hasTicks = recorded !== undefined && outcome !== undefined;

  return (
    <div className="stack">
      <MarketHeader market={m} />

      <div className="grid-2">
        <OutcomesTable market={m} charted={charted} onChart={(index) => setChart({ outcome: index })} />
        <Identifiers market={m} />
      </div>

      <SameQuestionElsewhere marketId={m.marketId} />

      <PriceLines marketId={m.marketId} />

      {outcome !== undefined && <StreamedOrderBook exchange={m.exchange} outcomeId={outcome.outcomeId} outcomeLabel={outcome.label} />}

      {!hasTicks ? (
        <p className="notice">No order-book history for this market: Brier records Polymarket books (by condition id) and Kalshi books (by ticker), and this market is on {m.exchange}.</p>
      ) : !historyAllowed ? (
        <p className="notice" data-testid="history-plan-notice">
          Order-book history (candles, recorded books, depth over time) comes from <code>POST /v0/sql</code>, which is part of the
          Enterprise plan. Your account is on the <strong>{plan}</strong> plan.
        </p>
      ) : (
        <HistoryCharts
          target={{ market: recorded.market, assetId: outcome.outcomeId, table: recorded.table }}
          outcomeLabel={outcome.label}
          chart={{ ...chart, outcome: charted }}
          onChart={setChart}
        />
      )}

      {hasTicks && <CoverageRibbon outcomeId={outcome.outcomeId} />}
    </div>
  );
}
