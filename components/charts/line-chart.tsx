"use client";
import { useRef } from "react";
import type { UTCTimestamp } from "lightweight-charts";
import { baseOptions, centsFormat, fitWithMargins, integerFormat, uniqueByTime, useChart } from "./use-chart";
import styles from "./charts.module.css";

export interface LineSeriesData {
  name: string;
  points: { time: number; value: number }[];
  /**
   * A percentile band's edge: drawn thin and dotted in the colour of the series at `colorOf`
   * (its median), with no label on the axis.
   */
  bandOf?: number;
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

/** Colour of the series at `index` (the legend uses the same). */
export function seriesColor(index: number, colors: { accent: string; up: string; down: string }): string {
  const name = palette[index % palette.length] ?? "accent";
  return name === "accent" ? colors.accent : name === "down" ? colors.down : name === "up" ? colors.up : name;
}

/**
 * Time series as lines (level counts over time, a SQL result with a time column). `format`
 * picks the unit of the axis and labels; `fill` makes the chart take its container's height.
 */
export function LineChart({
  series,
  label,
  small = false,
  fill = false,
  format = "number",
  testId,
}: {
  series: LineSeriesData[];
  label: string;
  small?: boolean;
  fill?: boolean;
  format?: "number" | "integer" | "cents";
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useChart(
    ref,
    (charts, element, colors) => {
      const chart = charts.createChart(element, { ...baseOptions(colors), leftPriceScale: { visible: series.some((s, i) => onLeftScale(series, i)), borderColor: colors.grid } });
      let points = 0;
      series.forEach((s, index) => {
        const band = s.bandOf !== undefined;
        const line = chart.addSeries(charts.LineSeries, {
          color: seriesColor(s.bandOf ?? index, colors),
          lineWidth: band ? 1 : 2,
          lineStyle: band ? charts.LineStyle.Dotted : charts.LineStyle.Solid,
          lastValueVisible: !band,
          title: band ? "" : s.name,
          priceLineVisible: false,
          priceScaleId: onLeftScale(series, index) ? "left" : "right",
          ...(format === "integer" ? { priceFormat: integerFormat } : format === "cents" ? { priceFormat: centsFormat } : {}),
        });
        const data = uniqueByTime(s.points).map((p) => ({ time: p.time as UTCTimestamp, value: p.value }));
        points = Math.max(points, data.length);
        line.setData(data);
      });
      fitWithMargins(chart, points, element.clientWidth);
      return () => chart.remove();
    },
    [series, format],
  );
  return (
    <div
      ref={ref}
      className={`${styles.frame} ${fill ? styles.fill : small ? styles.small : ""}`}
      role="img"
      aria-label={label}
      data-testid={testId}
    />
  );
}
