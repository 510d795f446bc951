"use client";
import { useRef } from "react";
import type { DepthPoint } from "@/lib/browser/sql-answers";
import { formatInteger } from "@/lib/format";
import { baseOptions, integerFormat, useChart } from "./use-chart";
import styles from "./charts.module.css";

/**
 * Cumulative depth by price: bids to the left of the spread, asks to the right (a price-scaled
 * horizontal axis in cents, sizes as whole numbers).
 */
export function DepthChart({ bids, asks }: { bids: DepthPoint[]; asks: DepthPoint[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useChart(
    ref,
    (charts, element, colors) => {
      const options = baseOptions(colors);
      const chart = charts.createOptionsChart(element, {
        ...options,
        timeScale: { borderColor: colors.grid },
        localization: { precision: 1, timeFormatter: (cents: number) => `${cents.toFixed(1)}¢` },
      });
      const toSeries = (points: DepthPoint[]) =>
        [...points]
          .sort((a, b) => a.price - b.price)
          .filter((p, i, all) => i === 0 || all[i - 1]?.price !== p.price)
          .map((p) => ({ time: Math.round(p.price * 1000) / 10, value: p.cumulative }));
      for (const [points, color, title] of [[bids, colors.up, "bids"], [asks, colors.down, "asks"]] as const) {
        const series = chart.addSeries(charts.AreaSeries, {
          lineColor: color,
          topColor: `${color}66`,
          bottomColor: `${color}10`,
          lineType: 1,
          priceLineVisible: false,
          // No value badge: the last point is the best bid's own size on one side and the whole
          // book on the other; both sides' totals are said in words under the chart.
          lastValueVisible: false,
          priceFormat: integerFormat,
          title,
        });
        series.setData(toSeries(points));
      }
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [bids, asks],
  );
  const total = (points: DepthPoint[]) => Math.max(0, ...points.map((p) => p.cumulative));
  return (
    <div>
      <div ref={ref} className={`${styles.frame} ${styles.small}`} role="img" aria-label="Cumulative depth by price (cents)" data-testid="depth-chart" />
      <div className={styles.axisNote}>
        <span>
          Cumulative size (shares) by price · in the book: bids {formatInteger(total(bids))}, asks {formatInteger(total(asks))}
        </span>
        <span>price (¢) →</span>
      </div>
    </div>
  );
}
