"use client";
import { useRef } from "react";
import type { UTCTimestamp } from "lightweight-charts";
import { uniqueByTime, baseOptions, useChart } from "./use-chart";
import styles from "./charts.module.css";

export interface LineSeriesData {
  name: string;
  points: { time: number; value: number }[];
}

const palette = ["accent", "down", "up", "#b26bd8", "#e39b28", "#2aa7b8"] as const;

const peak = (s: LineSeriesData) => Math.max(...s.points.map((p) => Math.abs(p.value)), Number.MIN_VALUE);

/**
 * A series whose magnitude is more than 10x the first series' (a count next to prices) gets the
 * left price scale, so neither flattens the other.
 */
function onLeftScale(series: LineSeriesData[], index: number): boolean {
  const first = series[0];
  const own = series[index];
  if (index === 0 || first === undefined || own === undefined) return false;
  const ratio = peak(own) / peak(first);
  return ratio > 10 || ratio < 0.1;
}

/** Time series as lines (level counts over time, a SQL result with a time column). */
export function LineChart({ series, label, small = false, testId }: { series: LineSeriesData[]; label: string; small?: boolean; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useChart(
    ref,
    (charts, element, colors) => {
      const chart = charts.createChart(element, { ...baseOptions(colors), leftPriceScale: { visible: series.some((s, i) => onLeftScale(series, i)), borderColor: colors.grid } });
      series.forEach((s, index) => {
        const name = palette[index % palette.length] ?? "accent";
        const color = name === "accent" ? colors.accent : name === "down" ? colors.down : name === "up" ? colors.up : name;
        const line = chart.addSeries(charts.LineSeries, {
          color,
          lineWidth: 2,
          title: s.name,
          priceLineVisible: false,
          priceScaleId: onLeftScale(series, index) ? "left" : "right",
        });
        line.setData(uniqueByTime(s.points).map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
      });
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [series],
  );
  return <div ref={ref} className={`${styles.frame} ${small ? styles.small : ""}`} role="img" aria-label={label} data-testid={testId} />;
}
