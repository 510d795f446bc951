"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo } from "react";
import { CandleChart } from "@/components/charts/candle-chart";
import { DepthChart } from "@/components/charts/depth-chart";
import { LineChart } from "@/components/charts/line-chart";
import { ErrorState } from "@/components/ui/query-state";
import { postSql } from "@/lib/browser/api-client";
import { recordedSpan, type MarketChartState } from "@/lib/browser/market-state";
import { candlesFromAnswer, cumulativeDepth, latestBookFromAnswer, levelBandsFromAnswer, type LevelBandPoint } from "@/lib/browser/sql-answers";
import { formatDateTime, formatInteger, formatPrice } from "@/lib/format";
import type { SqlResult } from "@/lib/sql/execute";
import {
  bookSql,
  candleIntervals,
  candleRanges,
  candleSql,
  depthBuckets,
  depthHistorySql,
  isCandleInterval,
  isCandleRange,
  type TickTarget,
} from "@/lib/sql/patterns";
import { BookLadder } from "./book-ladder";
import styles from "./market.module.css";

function useSql(query: string) {
  return useQuery({ queryKey: ["sql", query], queryFn: ({ signal }) => postSql<SqlResult>(query, signal) });
}

function OpenInConsole({ sql }: { sql: string }) {
  return (
    <Link className="button" href={`/sql?q=${encodeURIComponent(sql)}`} data-testid="open-in-sql">
      Open in SQL console
    </Link>
  );
}

const rangeWords: Record<MarketChartState["range"], string> = { "6h": "6 hours", "24h": "24 hours", "7d": "7 days", "30d": "30 days" };

function spanWords(seconds: number): string {
  if (seconds < 2 * 3600) return `${Math.max(1, Math.round(seconds / 60))} minutes`;
  if (seconds < 2 * 86_400) return `${Math.round(seconds / 3600)} hours`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

/**
 * Order-book history from POST /v0/sql, one card per chart: candles (interval and range from the
 * URL), the latest recorded book (ladder + depth) and book depth over the same range.
 */
export function HistoryCharts({
  target,
  outcomeLabel,
  chart,
  onChart,
}: {
  target: TickTarget;
  outcomeLabel: string;
  chart: MarketChartState;
  onChart: (next: Partial<MarketChartState>) => void;
}) {
  return (
    <>
      <CandlesCard target={target} outcomeLabel={outcomeLabel} chart={chart} onChart={onChart} />
      <div className={styles.historyGrid}>
        <RecordedBookCard target={target} outcomeLabel={outcomeLabel} />
        <DepthHistoryCard target={target} outcomeLabel={outcomeLabel} range={chart.range} />
      </div>
    </>
  );
}

function CandlesCard({ target, outcomeLabel, chart, onChart }: Parameters<typeof HistoryCharts>[0]) {
  const { interval, range } = chart;
  const query = candleSql(target, interval, range);
  const candles = useSql(query);
  const data = useMemo(() => (candles.data === undefined ? [] : candlesFromAnswer(candles.data)), [candles.data]);
  const covered = recordedSpan(data[0]?.time, chart);
  return (
    <section className="card" aria-labelledby="candles-title">
      <div className={styles.cardHead}>
        <h2 id="candles-title">Best bid candles · {outcomeLabel}</h2>
        <OpenInConsole sql={query} />
      </div>
      <div className={styles.controls}>
        <label>
          Interval
          <select value={interval} onChange={(e) => isCandleInterval(e.target.value) && onChart({ interval: e.target.value })} name="interval">
            {Object.keys(candleIntervals).map((key) => (
              <option key={key}>{key}</option>
            ))}
          </select>
        </label>
        <label>
          Time range
          <select value={range} onChange={(e) => isCandleRange(e.target.value) && onChart({ range: e.target.value })} name="range">
            {Object.keys(candleRanges).map((key) => (
              <option key={key}>{key}</option>
            ))}
          </select>
        </label>
        {candles.data !== undefined && (
          <span className="muted small" data-testid="candle-count">
            {data.length} candles · prices in ¢ · times in UTC · {(candles.data.meta.statistics.elapsed * 1000).toFixed(0)} ms
          </span>
        )}
      </div>
      {covered !== undefined && (
        <p className="notice small" data-testid="range-notice" style={{ margin: "0 0 0.75rem" }}>
          The range is longer than the recorded data: ticks for this outcome start {formatDateTime(new Date((data[0]?.time ?? 0) * 1000))}, so
          the last {rangeWords[range]} show only about {spanWords(covered)} of history.
        </p>
      )}
      <div className={styles.chartSlot}>
        {candles.isError ? (
          <ErrorState error={candles.error} title="Candles could not be loaded" onRetry={() => void candles.refetch()} />
        ) : candles.isPending ? (
          <div className="skeleton" style={{ height: 320 }} />
        ) : data.length === 0 ? (
          <p className="muted">No price changes recorded for this outcome in the last {rangeWords[range]}.</p>
        ) : (
          <CandleChart candles={data} label={`Best bid candles of ${outcomeLabel}, ${interval} interval over ${range}, prices in cents`} />
        )}
      </div>
      {data.length > 0 && (
        <details>
          <summary>Candle data ({data.length} rows)</summary>
          <div style={{ maxHeight: 260, overflow: "auto" }}>
            <table className="data small" data-testid="candle-table">
              <thead>
                <tr>
                  <th>Time (UTC)</th>
                  <th className="num">Open</th>
                  <th className="num">High</th>
                  <th className="num">Low</th>
                  <th className="num">Close</th>
                  <th className="num">Ticks</th>
                </tr>
              </thead>
              <tbody>
                {data.map((c) => (
                  <tr key={c.time} data-raw={JSON.stringify([c.open, c.high, c.low, c.close, c.ticks])}>
                    <td className="mono">{new Date(c.time * 1000).toISOString().slice(0, 19).replace("T", " ")}</td>
                    <td className="num mono">{formatPrice(c.open)}</td>
                    <td className="num mono">{formatPrice(c.high)}</td>
                    <td className="num mono">{formatPrice(c.low)}</td>
                    <td className="num mono">{formatPrice(c.close)}</td>
                    <td className="num mono">{c.ticks}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  );
}

function RecordedBookCard({ target, outcomeLabel }: { target: TickTarget; outcomeLabel: string }) {
  const query = bookSql(target, 1);
  const books = useSql(query);
  const snapshot = useMemo(() => (books.data === undefined ? undefined : latestBookFromAnswer(books.data)), [books.data]);
  const cumulative = useMemo(() => (snapshot === undefined ? undefined : cumulativeDepth(snapshot)), [snapshot]);
  const bestBid = snapshot?.bids[0]?.price;
  const bestAsk = snapshot?.asks[0]?.price;
  return (
    <section className="card" aria-labelledby="book-title">
      <div className={styles.cardHead}>
        <h2 id="book-title">Latest recorded book · {outcomeLabel}</h2>
        <OpenInConsole sql={query} />
      </div>
      {books.isError ? (
        <ErrorState error={books.error} title="The book could not be loaded" onRetry={() => void books.refetch()} />
      ) : books.isPending ? (
        <div className="skeleton" style={{ height: 480 }} />
      ) : snapshot === undefined || cumulative === undefined ? (
        <p className="muted">No book snapshot recorded for this outcome yet.</p>
      ) : (
        <div className="stack">
          <span className="muted small">
            Snapshot of {formatDateTime(new Date(snapshot.time * 1000))}
            {bestBid !== undefined && bestAsk !== undefined && (
              <>
                {" "}
                · best bid {formatPrice(bestBid)} · best ask {formatPrice(bestAsk)} · spread {formatPrice(bestAsk - bestBid)}
              </>
            )}
          </span>
          <BookLadder bids={snapshot.bids} asks={snapshot.asks} testId="recorded-book" />
          <DepthChart bids={cumulative.bids} asks={cumulative.asks} />
        </div>
      )}
    </section>
  );
}

function DepthHistoryCard({ target, outcomeLabel, range }: { target: TickTarget; outcomeLabel: string; range: MarketChartState["range"] }) {
  const query = depthHistorySql(target, range);
  const levels = useSql(query);
  const bands = useMemo(() => (levels.data === undefined ? [] : levelBandsFromAnswer(levels.data)), [levels.data]);
  const series = useMemo(() => {
    const line = (name: string, pick: (p: LevelBandPoint) => number, bandOf?: number) => ({ name, bandOf, points: bands.map((p) => ({ time: p.time, value: pick(p) })) });
    // Medians first (their colours), then each side's 10th and 90th percentiles as dotted edges.
    return [
      line("bid levels (median)", (p) => p.bid.p50),
      line("ask levels (median)", (p) => p.ask.p50),
      line("bid p10", (p) => p.bid.p10, 0),
      line("bid p90", (p) => p.bid.p90, 0),
      line("ask p10", (p) => p.ask.p10, 1),
      line("ask p90", (p) => p.ask.p90, 1),
    ];
  }, [bands]);
  const books = bands.reduce((sum, p) => sum + p.books, 0);
  return (
    <section className={`card ${styles.fillCard}`} aria-labelledby="levels-title">
      <div className={styles.cardHead}>
        <h2 id="levels-title">Book depth over time · {outcomeLabel}</h2>
        <OpenInConsole sql={query} />
      </div>
      <span className="muted small">
        Price levels per side in the books recorded over the last {rangeWords[range]}, per {depthBuckets[range].words}: the median, and dotted the 10th and 90th
        percentiles
        {levels.data !== undefined && ` (${formatInteger(books)} books in ${formatInteger(bands.length)} buckets)`}
      </span>
      <div className={styles.fillSlot}>
        {levels.isError ? (
          <ErrorState error={levels.error} title="Depth history could not be loaded" onRetry={() => void levels.refetch()} />
        ) : levels.isPending ? (
          <div className="skeleton" style={{ height: "100%", minHeight: 220 }} />
        ) : bands.length === 0 ? (
          <p className="muted">No book snapshots recorded for this outcome in the last {rangeWords[range]}.</p>
        ) : (
          <LineChart series={series} format="integer" fill label={`Bid and ask level counts over the last ${rangeWords[range]}, median and 10th to 90th percentile per ${depthBuckets[range].words}`} testId="levels-chart" />
        )}
      </div>
    </section>
  );
}
