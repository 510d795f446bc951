"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { CandleChart } from "@/components/charts/candle-chart";
import { DepthChart } from "@/components/charts/depth-chart";
import { LineChart } from "@/components/charts/line-chart";
import { ErrorState } from "@/components/ui/query-state";
import { postSql } from "@/lib/dashboard/api-client";
import { formatDateTime, formatPrice } from "@/lib/dashboard/format";
import {
  bookSql,
  candleIntervals,
  candleRanges,
  candleSql,
  candlesFromAnswer,
  cumulativeDepth,
  depthSql,
  isCandleInterval,
  isCandleRange,
  latestBookFromAnswer,
  levelCountsFromAnswer,
  type CandleInterval,
  type CandleRange,
  type SqlAnswer,
  type TickTarget,
} from "@/lib/dashboard/sql-patterns";
import { BookLadder } from "./book-ladder";
import styles from "./market.module.css";

function runSql(query: string, signal: AbortSignal): Promise<SqlAnswer> {
  return postSql<SqlAnswer>(query, signal);
}

function OpenInConsole({ sql }: { sql: string }) {
  return (
    <Link className="button" href={`/sql?q=${encodeURIComponent(sql)}`} data-testid="open-in-sql">
      Open in SQL console
    </Link>
  );
}

/** Order-book history from POST /v0/sql: candles, latest book (ladder + depth), depth over time. */
export function HistoryCharts({ target, outcomeLabel }: { target: TickTarget; outcomeLabel: string }) {
  const [interval, setCandleInterval] = useState<CandleInterval>("1h");
  const [range, setRange] = useState<CandleRange>("7d");
  const candleQuery = candleSql(target, interval, range);
  const book = bookSql(target, 1);
  const depth = depthSql(target.market, 100);

  const candles = useQuery({ queryKey: ["sql", candleQuery], queryFn: ({ signal }) => runSql(candleQuery, signal) });
  const books = useQuery({ queryKey: ["sql", book], queryFn: ({ signal }) => runSql(book, signal) });
  const levels = useQuery({ queryKey: ["sql", depth], queryFn: ({ signal }) => runSql(depth, signal) });

  const candleData = useMemo(() => (candles.data === undefined ? [] : candlesFromAnswer(candles.data)), [candles.data]);
  const snapshot = useMemo(() => (books.data === undefined ? undefined : latestBookFromAnswer(books.data)), [books.data]);
  const cumulative = useMemo(() => (snapshot === undefined ? undefined : cumulativeDepth(snapshot)), [snapshot]);
  const levelSeries = useMemo(() => {
    const points = levels.data === undefined ? [] : levelCountsFromAnswer(levels.data);
    return [
      { name: "bid levels", points: points.map((p) => ({ time: p.time, value: p.bidLevels })) },
      { name: "ask levels", points: points.map((p) => ({ time: p.time, value: p.askLevels })) },
    ];
  }, [levels.data]);

  return (
    <>
      <section className="card" aria-labelledby="candles-title">
        <div className={styles.cardHead}>
          <h2 id="candles-title">Best bid candles · {outcomeLabel}</h2>
          <OpenInConsole sql={candleQuery} />
        </div>
        <div className={styles.controls}>
          <label>
            Interval
            <select value={interval} onChange={(e) => isCandleInterval(e.target.value) && setCandleInterval(e.target.value)} name="interval">
              {Object.keys(candleIntervals).map((key) => (
                <option key={key}>{key}</option>
              ))}
            </select>
          </label>
          <label>
            Time range
            <select value={range} onChange={(e) => isCandleRange(e.target.value) && setRange(e.target.value)} name="range">
              {Object.keys(candleRanges).map((key) => (
                <option key={key}>{key}</option>
              ))}
            </select>
          </label>
          {candles.data !== undefined && (
            <span className="muted small" data-testid="candle-count">
              {candleData.length} candles · {candles.data.meta.statistics?.elapsed !== undefined ? `${(candles.data.meta.statistics.elapsed * 1000).toFixed(0)} ms` : ""}
            </span>
          )}
        </div>
        <div className={styles.chartSlot}>
          {candles.isError ? (
            <ErrorState error={candles.error} title="Candles could not be loaded" onRetry={() => void candles.refetch()} />
          ) : candles.isPending ? (
            <div className="skeleton" style={{ height: 320 }} />
          ) : candleData.length === 0 ? (
            <p className="muted">No price changes recorded for this outcome in the last {range}.</p>
          ) : (
            <CandleChart candles={candleData} label={`Best bid candles of ${outcomeLabel}, ${interval} interval over ${range}`} />
          )}
        </div>
        {candleData.length > 0 && (
          <details>
            <summary>Candle data ({candleData.length} rows)</summary>
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
                  {candleData.map((c) => (
                    <tr key={c.time}>
                      <td className="mono">{new Date(c.time * 1000).toISOString().slice(0, 19).replace("T", " ")}</td>
                      <td className="num mono">{c.open}</td>
                      <td className="num mono">{c.high}</td>
                      <td className="num mono">{c.low}</td>
                      <td className="num mono">{c.close}</td>
                      <td className="num mono">{c.ticks}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        )}
      </section>

      <div className="grid-2">
        <section className="card" aria-labelledby="book-title">
          <div className={styles.cardHead}>
            <h2 id="book-title">Latest recorded book</h2>
            <OpenInConsole sql={book} />
          </div>
          {books.isError ? (
            <ErrorState error={books.error} title="The book could not be loaded" onRetry={() => void books.refetch()} />
          ) : books.isPending ? (
            <div className="skeleton" style={{ height: 480 }} />
          ) : snapshot === undefined || cumulative === undefined ? (
            <p className="muted">No book snapshot recorded for this outcome yet.</p>
          ) : (
            <div className="stack">
              <span className="muted small">Snapshot of {formatDateTime(new Date(snapshot.time * 1000))}; spread {formatPrice(snapshot.asks[0] !== undefined && snapshot.bids[0] !== undefined ? snapshot.asks[0].price - snapshot.bids[0].price : undefined)}</span>
              <BookLadder bids={snapshot.bids} asks={snapshot.asks} testId="recorded-book" />
              <DepthChart bids={cumulative.bids} asks={cumulative.asks} />
            </div>
          )}
        </section>
        <section className="card" aria-labelledby="levels-title">
          <div className={styles.cardHead}>
            <h2 id="levels-title">Book depth over time</h2>
            <OpenInConsole sql={depth} />
          </div>
          <div className={styles.chartSlotSmall}>
            {levels.isError ? (
              <ErrorState error={levels.error} title="Depth history could not be loaded" onRetry={() => void levels.refetch()} />
            ) : levels.isPending ? (
              <div className="skeleton" style={{ height: 220 }} />
            ) : (levelSeries[0]?.points.length ?? 0) === 0 ? (
              <p className="muted">No book snapshots recorded for this market yet.</p>
            ) : (
              <LineChart series={levelSeries} label="Bid and ask level counts over the last 100 book snapshots" small testId="levels-chart" />
            )}
          </div>
        </section>
      </div>
    </>
  );
}
