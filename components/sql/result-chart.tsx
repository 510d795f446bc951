"use client";
import { useMemo, useState } from "react";
import { CandleChart } from "@/components/charts/candle-chart";
import { LineChart } from "@/components/charts/line-chart";
import { chartColumns, defaultChart, lineSeries, resultCandles } from "@/lib/browser/result-chart";
import type { SqlRows } from "@/lib/browser/sql-answers";
import styles from "./sql.module.css";

/** The result drawn over its time column: chart type (candles when OHLC columns exist) and columns chosen by the user. */
export function ResultChart({ answer }: { answer: SqlRows }) {
  const columns = useMemo(() => chartColumns(answer), [answer]);
  const initial = columns === undefined ? undefined : defaultChart(columns);
  const [kind, setKind] = useState(initial?.kind ?? "line");
  const [time, setTime] = useState(initial?.time ?? "");
  const [values, setValues] = useState<string[]>(initial?.values ?? []);
  const lines = useMemo(() => (columns === undefined ? [] : lineSeries(answer, time, values)), [answer, columns, time, values]);
  const candles = useMemo(() => (columns?.ohlc === true ? resultCandles(answer, time) : []), [answer, columns, time]);
  if (columns === undefined) return null;
  const showCandles = kind === "candles" && columns.ohlc;
  return (
    <section className="card" aria-label="Result chart" data-testid="sql-chart-card">
      <div className={styles.chartControls}>
        <label>
          Chart
          <select name="chart-kind" value={showCandles ? "candles" : "line"} onChange={(e) => setKind(e.target.value === "candles" ? "candles" : "line")}>
            <option value="line">Lines</option>
            {columns.ohlc && <option value="candles">Candles (open/high/low/close)</option>}
          </select>
        </label>
        <label>
          Time axis
          <select name="chart-time" value={time} onChange={(e) => setTime(e.target.value)}>
            {columns.time.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        {!showCandles && (
          <fieldset className={styles.columnPicker}>
            <legend>Columns</legend>
            {columns.numeric.map((name) => (
              <label key={name} className="inline">
                <input
                  type="checkbox"
                  checked={values.includes(name)}
                  onChange={(e) => setValues((current) => (e.target.checked ? [...current, name] : current.filter((v) => v !== name)))}
                />
                {name}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      {showCandles ? (
        candles.length === 0 ? (
          <p className="muted">No row has a time and all four of open, high, low and close.</p>
        ) : (
          <CandleChart candles={candles} label="Candles of the query result" />
        )
      ) : values.length === 0 ? (
        <p className="muted">Pick at least one column to draw.</p>
      ) : (
        <LineChart series={lines} label="Chart of the query result over its time column" testId="sql-chart" />
      )}
    </section>
  );
}
