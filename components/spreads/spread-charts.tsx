"use client";
import { useRef } from "react";
import type { SeriesMarker, Time, UTCTimestamp } from "lightweight-charts";
import { baseOptions, centsFormat, useChart } from "@/components/charts/use-chart";
import styles from "@/components/charts/charts.module.css";
import type { EpisodePublic, SpreadPoint } from "@/lib/spreads/shapes";

const seconds = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

/** One value per second (the chart's finest time step): the last point of each second; null leaves a gap (an unknown book is never drawn). */
function perSecond(points: readonly SpreadPoint[], value: (point: SpreadPoint) => number | null | undefined): Array<{ time: UTCTimestamp; value?: number }> {
  const out: Array<{ time: UTCTimestamp; value?: number }> = [];
  for (const point of points) {
    const v = value(point);
    const entry = v === null || v === undefined ? { time: seconds(point.t) } : { time: seconds(point.t), value: v };
    if (out.length > 0 && out[out.length - 1]?.time === entry.time) out[out.length - 1] = entry;
    else out.push(entry);
  }
  return out;
}

/** Both books' best bid and ask as lines on one time axis; a gap where a book is unknown. */
export function BooksChart({ points, labelA, labelB }: { points: SpreadPoint[]; labelA: string; labelB: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useChart(
    ref,
    (charts, element, colors) => {
      const chart = charts.createChart(element, baseOptions(colors));
      const lines: Array<[string, string, (p: SpreadPoint) => number | null | undefined, number]> = [
        [`${labelA} bid`, colors.accent, (p) => p.a?.bid, 0],
        [`${labelA} ask`, colors.accent, (p) => p.a?.ask, 2],
        [`${labelB} bid`, colors.down, (p) => p.b?.bid, 0],
        [`${labelB} ask`, colors.down, (p) => p.b?.ask, 2],
      ];
      for (const [title, color, value, lineStyle] of lines) {
        const series = chart.addSeries(charts.LineSeries, { color, lineWidth: 2, lineStyle, title, priceLineVisible: false, priceFormat: centsFormat, lineType: charts.LineType.WithSteps });
        series.setData(perSecond(points, value));
      }
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [points, labelA, labelB],
  );
  return <div ref={ref} className={styles.frame} role="img" aria-label={`Best bid and ask of ${labelA} and ${labelB}`} data-testid="pair-books-chart" data-points={points.length} />;
}

/** The net spread after fees (the better direction) beneath, a line at the threshold, episodes marked where they start. */
export function NetSpreadChart({ points, episodes, threshold }: { points: SpreadPoint[]; episodes: EpisodePublic[]; threshold: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useChart(
    ref,
    (charts, element, colors) => {
      const chart = charts.createChart(element, baseOptions(colors));
      const series = chart.addSeries(charts.BaselineSeries, {
        baseValue: { type: "price", price: threshold },
        topLineColor: colors.up,
        bottomLineColor: colors.text,
        topFillColor1: "rgba(19, 138, 74, 0.25)",
        topFillColor2: "rgba(19, 138, 74, 0.05)",
        bottomFillColor1: "rgba(0, 0, 0, 0)",
        bottomFillColor2: "rgba(0, 0, 0, 0)",
        priceFormat: centsFormat,
        title: "net after fees",
        lineType: charts.LineType.WithSteps,
      });
      const data = perSecond(points, (p) => p.best);
      series.setData(data);
      // A marker sits on a point of the series: the first one at or after the episode's start.
      const markers: SeriesMarker<Time>[] = [];
      for (const episode of episodes) {
        const at = data.find((d) => d.time >= seconds(episode.start));
        if (at === undefined || at.time > seconds(episode.end)) continue;
        markers.push({ time: at.time, position: "aboveBar", color: colors.up, shape: "arrowDown", text: `${(episode.peak * 100).toFixed(1)}¢` });
      }
      charts.createSeriesMarkers(series, markers);
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [points, episodes, threshold],
  );
  return <div ref={ref} className={`${styles.frame} ${styles.small}`} role="img" aria-label="Net spread per contract after both venues' fees" data-testid="pair-net-chart" data-episodes={episodes.length} />;
}
