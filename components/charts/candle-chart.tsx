"use client";
import { useRef } from "react";
import type { UTCTimestamp } from "lightweight-charts";
import type { Candle } from "@/lib/dashboard/sql-patterns";
import { baseOptions, uniqueByTime, useChart } from "./use-chart";
import styles from "./charts.module.css";

export function CandleChart({ candles, label }: { candles: Candle[]; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
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
        priceFormat: { type: "price", precision: 3, minMove: 0.001 },
      });
      series.setData(uniqueByTime(candles).map((c) => ({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close })));
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [candles],
  );
  return <div ref={ref} className={styles.frame} role="img" aria-label={label} data-testid="candle-chart" data-candles={candles.length} />;
}
