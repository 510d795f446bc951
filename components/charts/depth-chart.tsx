"use client";
import { useRef } from "react";
import type { DepthPoint } from "@/lib/dashboard/sql-patterns";
import { baseOptions, useChart } from "./use-chart";
import styles from "./charts.module.css";

/** Cumulative depth by price: bids to the left of the spread, asks to the right (a price-scaled horizontal axis). */
export function DepthChart({ bids, asks }: { bids: DepthPoint[]; asks: DepthPoint[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useChart(
    ref,
    (charts, element, colors) => {
      const options = baseOptions(colors);
      // Prices are probabilities (0..1): three decimals on the horizontal scale.
      const chart = charts.createOptionsChart(element, { ...options, timeScale: { borderColor: colors.grid }, localization: { precision: 3 } });
      const toSeries = (points: DepthPoint[]) =>
        [...points].sort((a, b) => a.price - b.price).filter((p, i, all) => i === 0 || all[i - 1]?.price !== p.price).map((p) => ({ time: p.price, value: p.cumulative }));
      for (const [points, color, title] of [[bids, colors.up, "bids"], [asks, colors.down, "asks"]] as const) {
        const series = chart.addSeries(charts.AreaSeries, {
          lineColor: color,
          topColor: `${color}66`,
          bottomColor: `${color}10`,
          lineType: 1,
          priceLineVisible: false,
          title,
        });
        series.setData(toSeries(points));
      }
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [bids, asks],
  );
  return <div ref={ref} className={`${styles.frame} ${styles.small}`} role="img" aria-label="Cumulative depth by price" data-testid="depth-chart" />;
}
