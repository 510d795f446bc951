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

/** Room a peak label takes on the time axis, in pixels: a label closer than this to the previous one is left out (its arrow stays). */
const LABEL_PX = 56;

/**
 * Episode markers: each on a point of the series (the first at or after the episode's start),
 * episodes on the same point merged into one marker with the highest peak, and a peak label only
 * where it has room: never two labels closer than LABEL_PX at the chart's width, so labels never
 * overlap ("2.0¢2.0¢"); the episodes table lists every one.
 */
export function episodeMarkers(data: ReadonlyArray<{ time: Time }>, episodes: readonly EpisodePublic[], widthPx: number, color: string): SeriesMarker<Time>[] {
  const peaks = new Map<number, number>();
  for (const episode of episodes) {
    const at = data.find((d) => (d.time as number) >= seconds(episode.start));
    if (at === undefined || (at.time as number) > seconds(episode.end)) continue;
    const time = at.time as number;
    peaks.set(time, Math.max(peaks.get(time) ?? Number.NEGATIVE_INFINITY, episode.peak));
  }
  const first = data[0]?.time as number | undefined;
  const last = data.at(-1)?.time as number | undefined;
  const secondsPerPx = first === undefined || last === undefined || widthPx <= 0 ? 0 : (last - first) / widthPx;
  const room = LABEL_PX * secondsPerPx;
  let labelled = Number.NEGATIVE_INFINITY;
  return [...peaks]
    .sort((x, y) => x[0] - y[0])
    .map(([time, peak]) => {
      const label = time - labelled >= room;
      if (label) labelled = time;
      return { time: time as Time, position: "aboveBar" as const, color, shape: "arrowDown" as const, text: label ? `${(peak * 100).toFixed(1)}¢` : "" };
    });
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
      charts.createSeriesMarkers(series, episodeMarkers(data, episodes, element.clientWidth, colors.up));
      chart.timeScale().fitContent();
      return () => chart.remove();
    },
    [points, episodes, threshold],
  );
  return <div ref={ref} className={`${styles.frame} ${styles.small}`} role="img" aria-label="Net spread per contract after both venues' fees" data-testid="pair-net-chart" data-episodes={episodes.length} />;
}
