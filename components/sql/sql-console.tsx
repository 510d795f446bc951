"use client";
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useCallback, useRef, useState, type KeyboardEvent } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { ErrorState } from "@/components/ui/query-state";
import { ApiError, downloadPost, postSql } from "@/lib/browser/api-client";
import { formatBytes, formatInteger } from "@/lib/format";
import type { SqlResult } from "@/lib/sql/execute";
import { bookSql, candleSql, depthSql, sqlString, type TickTarget } from "@/lib/sql/patterns";
import { MarketPicker, type PickedMarket } from "./market-picker";
import { ResultChart } from "./result-chart";
import { SchemaPanel } from "./schema-panel";
import { VirtualTable, type ExpandedCell } from "./virtual-table";
import styles from "./sql.module.css";

const examplesFor = (target: TickTarget) => [
  { name: "Hourly candles (7 days)", sql: candleSql(target) },
  { name: "Latest book snapshots", sql: bookSql(target) },
  { name: "Book depth over time", sql: depthSql(target) },
];

/** The editor's query pointed at another market: its condition id and outcome id literals replaced. */
function retarget(sql: string, from: TickTarget | undefined, to: TickTarget): string {
  if (from === undefined) return sql;
  return sql.split(sqlString(from.market)).join(sqlString(to.market)).split(sqlString(from.assetId)).join(sqlString(to.assetId));
}

/** A plan or limit refusal reads as one; a mistake in the SQL (an unknown column, a typo) reads as what it is. */
function refusalTitle(error: unknown): string {
  const status = error instanceof ApiError ? error.status : undefined;
  if (status === 403) return "The query was refused (plan)";
  if (status === 429 || status === 503) return "The query was not run (too many queries now)";
  if (status === 408) return "The query ran out of time";
  return "The query has an error";
}

/** A long cell shown whole: JSON pretty-printed when it parses. */
function pretty(value: string): string {
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

export function SqlConsole({ allowed, plan }: { allowed: boolean; plan: string }) {
  const params = useSearchParams();
  const [sql, setSql] = useState(() => params.get("q") ?? "");
  const [target, setTarget] = useState<PickedMarket | undefined>(undefined);
  const editor = useRef<HTMLTextAreaElement>(null);
  const run = useMutation({ mutationFn: (query: string) => postSql<SqlResult>(query) });
  const [exportError, setExportError] = useState<unknown>(undefined);
  const [expanded, setExpanded] = useState<ExpandedCell | undefined>(undefined);

  const execute = (query: string) => {
    if (query.trim() === "" || run.isPending) return;
    setExpanded(undefined);
    run.mutate(query);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      execute(sql);
    }
  };
  const picked = useRef<PickedMarket | undefined>(undefined);
  const pick = useCallback((next: PickedMarket) => {
    const previous = picked.current;
    picked.current = next;
    // The console opens with the first example on the first market, ready to run; afterwards a
    // new market retargets whatever is in the editor.
    setSql((current) => (previous === undefined && current.trim() === "" ? candleSql(next) : retarget(current, previous, next)));
    setTarget(next);
  }, []);
  const insert = (text: string) => {
    const area = editor.current;
    if (area === null) return setSql((current) => `${current}${text}`);
    const start = area.selectionStart;
    const end = area.selectionEnd;
    setSql((current) => `${current.slice(0, start)}${text}${current.slice(end)}`);
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(start + text.length, start + text.length);
    });
  };
  const download = async (format: "csv" | "parquet") => {
    setExportError(undefined);
    try {
      await downloadPost(`/v0/sql?format=${format}`, { query: run.variables ?? sql }, `brier-query.${format}`);
    } catch (error) {
      setExportError(error);
    }
  };
  const stats = run.data?.meta.statistics;
  const examples = target === undefined ? [] : examplesFor(target);

  return (
    <div className="stack">
      <h1>SQL console</h1>
      {!allowed && (
        <p className="notice" data-testid="sql-plan-notice">
          <code>POST /v0/sql</code> is part of the Enterprise plan; your account is on the <strong>{plan}</strong> plan, so queries
          will be refused with <code>sql_access_denied</code>.
        </p>
      )}
      <div className={styles.layout}>
        <div className="stack" style={{ minWidth: 0 }}>
          <label>
            Query <span className="muted small">(ClickHouse SQL, read-only; Ctrl+Enter or ⌘+Enter runs)</span>
            <textarea
              ref={editor}
              className={`code ${styles.editor}`}
              name="sql"
              spellCheck={false}
              value={sql}
              onChange={(event) => setSql(event.target.value)}
              onKeyDown={onKeyDown}
              placeholder="SELECT … FROM polymarket_orderbook_rust WHERE market = '…'"
            />
          </label>
          <div className="row">
            <button type="button" className="primary" onClick={() => execute(sql)} disabled={run.isPending || sql.trim() === ""}>
              {run.isPending ? "Running…" : "Run"}
            </button>
            <button type="button" disabled={run.data === undefined} onClick={() => void download("csv")}>
              Download CSV
            </button>
            <button type="button" disabled={run.data === undefined} onClick={() => void download("parquet")}>
              Download Parquet
            </button>
            <div className={styles.stats} aria-live="polite" data-testid="sql-stats">
              {run.data !== undefined && (
                <>
                  <span>{formatInteger(run.data.meta.rows)} rows</span>
                  {stats?.elapsed !== undefined && <span>elapsed {(stats.elapsed * 1000).toFixed(1)} ms</span>}
                  {stats?.rows_read !== undefined && <span>{formatInteger(stats.rows_read)} rows read</span>}
                  {stats?.bytes_read !== undefined && <span>{formatBytes(stats.bytes_read)} read</span>}
                </>
              )}
            </div>
          </div>
          {exportError !== undefined && <ErrorState error={exportError} title="The export failed" />}
          {run.isError && <ErrorState error={run.error} title={refusalTitle(run.error)} />}
          {run.data?.meta.rows_capped === true && (
            <p className="notice" data-testid="rows-capped">
              The result was capped at {formatInteger(run.data.meta.rows)} rows. Add a <code>LIMIT</code> or aggregate to see all of it.
            </p>
          )}
        </div>
        <div className={styles.side}>
          <section className="card" aria-labelledby="examples-title">
            <h2 id="examples-title">Examples</h2>
            <p className="muted small" style={{ marginTop: 0 }}>
              A click runs the example on the market below.
            </p>
            <div className={styles.examples}>
              {examples.length === 0 ? (
                <p className="muted small">Examples appear once the catalog has a market with recorded ticks.</p>
              ) : (
                examples.map((example) => (
                  <button
                    key={example.name}
                    type="button"
                    onClick={() => {
                      setSql(example.sql);
                      execute(example.sql);
                    }}
                  >
                    {example.name}
                  </button>
                ))
              )}
            </div>
          </section>
          <MarketPicker value={target} onPick={pick} />
          <SchemaPanel allowed={allowed} onInsert={insert} />
        </div>
      </div>
      {run.data !== undefined && <ResultChart key={run.data.meta.columns.map((c) => c.name).join() + String(run.submittedAt)} answer={run.data} />}
      {run.data !== undefined &&
        (run.data.data.length === 0 ? (
          <p className="muted">The query returned no rows.</p>
        ) : (
          <VirtualTable columns={run.data.meta.columns} rows={run.data.data} onExpand={setExpanded} />
        ))}
      {expanded !== undefined && (
        <section className="card stack" aria-labelledby="cell-title" data-testid="cell-detail" style={{ gap: "0.5rem" }}>
          <div className="row">
            <h2 id="cell-title" style={{ margin: 0 }}>
              Row {expanded.row}, <code>{expanded.column}</code> <span className="muted small">{expanded.type}</span>
            </h2>
            <span className="spacer" />
            <CopyButton value={expanded.value} label="Copy value" />
            <button type="button" onClick={() => setExpanded(undefined)}>
              Close
            </button>
          </div>
          <pre className={`code ${styles.cellDetail}`}>{pretty(expanded.value)}</pre>
        </section>
      )}
    </div>
  );
}
