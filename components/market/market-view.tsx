"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { getJson } from "@/lib/dashboard/api-client";
import { formatChange, formatDateTime, formatPrice, formatVolume } from "@/lib/dashboard/format";
import { HistoryCharts } from "./history-charts";
import { LiveOrderBook } from "./live-order-book";
import styles from "./market.module.css";

/** The market page: catalog record from /v0/markets/{id}, history charts (enterprise) and the live book. */
export function MarketView({ id, historyAllowed, plan }: { id: string; historyAllowed: boolean; plan: string }) {
  const market = useQuery({
    queryKey: ["market", id],
    queryFn: ({ signal }) => getJson<{ data: MarketPublic }>(`/v0/markets/${encodeURIComponent(id)}`, signal),
  });
  const [outcomeIndex, setOutcomeIndex] = useState(0);
  // Start downloading the chart library while the market record loads, not after.
  useEffect(() => {
    if (historyAllowed) void import("lightweight-charts");
  }, [historyAllowed]);

  if (market.isPending) return <SkeletonRows rows={8} height={60} />;
  if (market.isError) {
    return <ErrorState error={market.error} title="This market could not be loaded" onRetry={() => void market.refetch()} />;
  }
  const m = market.data.data;
  const outcome = m.outcomes[outcomeIndex] ?? m.outcomes[0];
  const hasTicks = m.contractAddress !== null && outcome !== undefined;

  return (
    <div className="stack">
      <header className={styles.head}>
        <nav className="small" aria-label="Breadcrumb">
          <Link href="/">Catalog</Link> / <Link href={`/events/${m.eventId}`}>Event</Link>
        </nav>
        <h1>{m.title}</h1>
        <div className={styles.meta}>
          <span className="badge">{m.exchange}</span>
          <span>{m.category}</span>
          <span>Status: {m.closed ? "closed" : (m.status ?? "open")}</span>
          <span>Resolves: {formatDateTime(m.resolutionDate)}</span>
          <span>24h volume: {formatVolume(m.volume24h)}</span>
          {m.liquidity !== null && <span>Liquidity: {formatVolume(m.liquidity)}</span>}
          {m.url !== null && (
            <a href={m.url} target="_blank" rel="noopener noreferrer">
              View on {m.exchange} ↗
            </a>
          )}
        </div>
      </header>

      <div className="grid-2">
        <section className="card" aria-labelledby="outcomes-title">
          <h2 id="outcomes-title">Outcomes</h2>
          <table className="data" data-testid="outcomes">
            <thead>
              <tr>
                <th scope="col">Outcome</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  24h change
                </th>
                <th scope="col">Charts</th>
              </tr>
            </thead>
            <tbody>
              {m.outcomes.map((o, index) => {
                const change = formatChange(o.priceChange24h);
                return (
                  <tr key={o.outcomeId}>
                    <td>{o.label}</td>
                    <td className="num mono">{formatPrice(o.price)}</td>
                    <td className={`num mono ${change.tone}`}>{change.text}</td>
                    <td>
                      <label className="inline">
                        <input type="radio" name="chart-outcome" checked={index === outcomeIndex} onChange={() => setOutcomeIndex(index)} />
                        <span className="visually-hidden">Chart {o.label}</span>
                        <span aria-hidden="true">show</span>
                      </label>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
        <section className="card" aria-labelledby="ids-title">
          <h2 id="ids-title">Identifiers</h2>
          <div className={styles.ids} data-testid="ids">
            <IdRow name="marketId" value={m.marketId} />
            <IdRow name="eventId" value={m.eventId} />
            <IdRow name="venueMarketId" value={m.venueMarketId} />
            {m.contractAddress !== null && <IdRow name="contractAddress" value={m.contractAddress} />}
            {m.outcomes.map((o) => (
              <IdRow key={o.outcomeId} name={`outcome: ${o.label}`} value={o.outcomeId} />
            ))}
          </div>
        </section>
      </div>

      {outcome !== undefined && <LiveOrderBook exchange={m.exchange} outcomeId={outcome.outcomeId} />}

      {!hasTicks ? (
        <p className="notice">No order-book history for this market: Brier records Polymarket books (by condition id), and this market has none.</p>
      ) : !historyAllowed ? (
        <p className="notice" data-testid="history-plan-notice">
          Order-book history (candles, recorded books, depth over time) comes from <code>POST /v0/sql</code>, which is part of the
          Enterprise plan. Your account is on the <strong>{plan}</strong> plan.
        </p>
      ) : (
        <HistoryCharts target={{ market: m.contractAddress ?? "", assetId: outcome.outcomeId }} outcomeLabel={outcome.label} />
      )}
    </div>
  );
}

function IdRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <span className="muted small">{name}</span>
      <code title={value} data-id-name={name}>
        {value}
      </code>
      <CopyButton value={value} label="Copy" />
    </>
  );
}
