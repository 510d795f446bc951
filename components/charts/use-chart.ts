"use client";
import { useEffect, useRef, useState, type RefObject } from "react";
import type * as LightweightCharts from "lightweight-charts";

export type ChartsModule = typeof LightweightCharts;

export interface ChartColors {
  text: string;
  grid: string;
  background: string;
  up: string;
  down: string;
  accent: string;
}

function readColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const get = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: get("--muted", "#5b6472"),
    grid: get("--border", "#d9dde3"),
    background: get("--surface", "#ffffff"),
    up: get("--up", "#138a4a"),
    down: get("--down", "#c4352b"),
    accent: get("--accent", "#2357d9"),
  };
}

/** Layout options every chart shares: theme colours, and autoSize so charts follow their container. */
export function baseOptions(colors: ChartColors) {
  return {
    autoSize: true,
    layout: { background: { color: colors.background }, textColor: colors.text, attributionLogo: false },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.grid },
    timeScale: { borderColor: colors.grid, timeVisible: true, secondsVisible: false },
  } as const;
}

/**
 * Loads lightweight-charts on demand (kept out of every page's first load), builds a chart in
 * `container` with `build`, rebuilds it when `deps` or the theme change, and removes it on unmount.
 * `build` returns the cleanup (chart.remove()).
 */
export function useChart(
  container: RefObject<HTMLDivElement | null>,
  build: (charts: ChartsModule, element: HTMLDivElement, colors: ChartColors) => () => void,
  deps: readonly unknown[],
): { ready: boolean } {
  const [charts, setCharts] = useState<ChartsModule | undefined>(undefined);
  const [themeTick, setThemeTick] = useState(0);
  const buildRef = useRef(build);
  // Declared before the building effect, so it runs first: the chart is built with this render's `build`.
  useEffect(() => {
    buildRef.current = build;
  });

  useEffect(() => {
    let cancelled = false;
    void import("lightweight-charts").then((module) => {
      if (!cancelled) setCharts(module);
    });
    const onTheme = () => setThemeTick((n) => n + 1);
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    window.addEventListener("brier-theme", onTheme);
    media.addEventListener("change", onTheme);
    return () => {
      cancelled = true;
      window.removeEventListener("brier-theme", onTheme);
      media.removeEventListener("change", onTheme);
    };
  }, []);

  useEffect(() => {
    const element = container.current;
    if (charts === undefined || element === null) return;
    return buildRef.current(charts, element, readColors());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [charts, themeTick, container, ...deps]);

  return { ready: charts !== undefined };
}

/** Prices (probabilities 0..1) shown in cents on axes and crosshair labels: 0.634 -> "63.4¢". */
export const centsFormat = {
  type: "custom",
  minMove: 0.0001,
  formatter: (price: number) => `${(Math.round(price * 1000) / 10).toFixed(1)}¢`,
} as const;

/**
 * Fits `count` points into view with a margin of about `marginPx` on each side, so the first and
 * last time labels are not cut at the chart's edges (plain fitContent puts them on the edge).
 */
export function fitWithMargins(
  chart: { timeScale(): { fitContent(): void; setVisibleLogicalRange(range: { from: number; to: number }): void } },
  count: number,
  width: number,
  marginPx = 40,
): void {
  if (count < 2 || width <= 0) return chart.timeScale().fitContent();
  // The price scale takes about 60 px of the width.
  const plot = Math.max(2 * marginPx + 40, width - 60);
  const pad = (count * marginPx) / (plot - 2 * marginPx);
  chart.timeScale().setVisibleLogicalRange({ from: -pad, to: count - 1 + pad });
}

/** Counts (book levels) as whole numbers on axes and labels. */
export const integerFormat = { type: "price", precision: 0, minMove: 1 } as const;

/** lightweight-charts needs strictly increasing times: keep the last value of each time. */
export function uniqueByTime<T extends { time: number }>(points: readonly T[]): T[] {
  const out: T[] = [];
  for (const point of [...points].sort((a, b) => a.time - b.time)) {
    if (out.length > 0 && out[out.length - 1]?.time === point.time) out[out.length - 1] = point;
    else out.push(point);
  }
  return out;
}
