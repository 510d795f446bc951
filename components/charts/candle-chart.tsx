"use client";
import { useRef, useState } from "react";
import type { MouseEventParams, Time, UTCTimestamp } from "lightweight-charts";
import type { Candle } from "@/lib/browser/sql-answers";
import { formatInteger, formatPrice } from "@/lib/format";
import { baseOptions, centsFormat, uniqueByTime, useChart } from "./use-chart";
import styles from "./charts.module.css";

/** "2026-11-23 14:00 UTC": the chart's times are UTC, and the legend says so. */
function utcLabel(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Best-bid candles with prices in cents; hovering shows the candle's time (UTC), O/H/L/C and tick count. */
export function CandleChart({ candles, label }: { candles: Candle[]; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<Candle | undefined>(undefined);
  const last = candles[candles.length - 1];
  useChart(
    ref,
    (charts, element, colors) => {
      const chart = charts.createChart(element, baseOptions(colors));
      const series = chart.addSeries(charts.CandlestickSeries, {
        upColor: colors.up,
        downColor: colors.down,
        borderVisible: false,
        wickUpColor: colors.up,
        wickDownColor: colors.down,
        priceFormat: centsFormat,
      });
      const byTime = new Map(candles.map((c) => [c.time, c]));
      series.setData(uniqueByTime(candles).map((c) => ({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close })));
      chart.timeScale().fitContent();
      const onMove = (param: MouseEventParams<Time>) => {
        setHovered(typeof param.time === "number" && param.point !== undefined ? byTime.get(param.time) : undefined);
      };
      chart.subscribeCrosshairMove(onMove);
      return () => {
        chart.unsubscribeCrosshairMove(onMove);
        chart.remove();
      };
    },
    [candles],
  );
  const shown = hovered ?? last;
  return (
    <div className={styles.frameWrap}>
      <div ref={ref} className={styles.frame} role="img" aria-label={label} data-testid="candle-chart" data-candles={candles.length} />
      {shown !== undefined && (
        <div className={styles.ohlc} data-testid="candle-legend" data-hovered={hovered !== undefined} aria-live="off">
          <span className="mono">{utcLabel(shown.time)}</span>
          <span>
            O <b className="mono">{formatPrice(shown.open)}</b>
          </span>
          <span>
            H <b className="mono">{formatPrice(shown.high)}</b>
          </span>
          <span>
            L <b className="mono">{formatPrice(shown.low)}</b>
          </span>
          <span>
            C <b className={`mono ${shown.close >= shown.open ? "up" : "down"}`}>{formatPrice(shown.close)}</b>
          </span>
          <span>
            <b className="mono">{formatInteger(shown.ticks)}</b> ticks
          </span>
          {hovered === undefined && <span className="muted">(latest; hover a candle)</span>}
        </div>
      )}
    </div>
  );
}
