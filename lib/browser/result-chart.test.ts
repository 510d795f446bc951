import { describe, expect, it } from "vitest";
import { chartColumns, defaultChart, lineSeries, resultCandles } from "./result-chart";

const candles = {
  meta: {
    columns: [
      { name: "hour", type: "DateTime" },
      { name: "open", type: "Float64" },
      { name: "close", type: "Float64" },
      { name: "low", type: "Float64" },
      { name: "high", type: "Float64" },
      { name: "ticks", type: "UInt64" },
    ],
  },
  data: [
    { hour: "2026-11-23 02:00:00", open: 0.5, close: 0.52, low: 0.49, high: 0.53, ticks: "12" },
    { hour: "2026-11-23 01:00:00", open: 0.48, close: 0.5, low: 0.47, high: 0.5, ticks: "9" },
  ],
};

describe("SQL result charts", () => {
  it("finds time and numeric columns and offers candles for OHLC", () => {
    const columns = chartColumns(candles);
    expect(columns).toEqual({ time: ["hour"], numeric: ["open", "close", "low", "high", "ticks"], ohlc: true });
    expect(defaultChart(columns ?? { time: [], numeric: [], ohlc: false })).toEqual({
      kind: "candles",
      time: "hour",
      values: ["open", "close", "low", "high", "ticks"],
    });
  });

  it("draws OHLC rows as candles in time order, with the tick count", () => {
    expect(resultCandles(candles, "hour")).toEqual([
      { time: Date.parse("2026-11-23T01:00:00Z") / 1000, open: 0.48, high: 0.5, low: 0.47, close: 0.5, ticks: 9 },
      { time: Date.parse("2026-11-23T02:00:00Z") / 1000, open: 0.5, high: 0.53, low: 0.49, close: 0.52, ticks: 12 },
    ]);
  });

  it("draws the chosen columns as lines", () => {
    const lines = lineSeries(candles, "hour", ["ticks"]);
    expect(lines).toEqual([{ name: "ticks", points: [{ time: 1795395600, value: 9 }, { time: 1795399200, value: 12 }] }]);
  });

  it.each([
    [[{ name: "n", type: "UInt64" }]],
    [[{ name: "t", type: "DateTime" }, { name: "s", type: "String" }]],
  ])("has nothing to chart without a time and a numeric column", (columns) => {
    expect(chartColumns({ meta: { columns }, data: [] })).toBeUndefined();
  });

  it("is not OHLC without all four columns", () => {
    expect(chartColumns({ meta: { columns: candles.meta.columns.filter((c) => c.name !== "low") }, data: [] })?.ohlc).toBe(false);
  });
});
