"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useMemo, useRef, useState, type KeyboardEvent } from "react";
import { LineChart } from "@/components/charts/line-chart";
import { ErrorState } from "@/components/ui/query-state";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { downloadPost, getJson, postSql } from "@/lib/dashboard/api-client";
import { formatBytes, formatInteger } from "@/lib/dashboard/format";
import { chartableSeries } from "@/lib/dashboard/result-chart";
import { bookSql, candleSql, depthSql, type SqlAnswer, type TickTarget } from "@/lib/dashboard/sql-patterns";
import { VirtualTable } from "./virtual-table";
import styles from "./sql.module.css";

/** A market of the catalog with recorded ticks' ids, to fill the examples with real values. */
function useExampleTarget(): TickTarget | undefined {
  const markets = useQuery({
    queryKey: ["catalog", "/v0/markets?limit=100"],
    queryFn: ({ signal }) => getJson<{ data: MarketPublic[] }>("/v0/markets?limit=100", signal),
  });
  return useMemo(() => {
    const rows = markets.data?.data ?? [];
    const market = rows.find((m) => m.exchange === "polymarket" && m.contractAddress !== null) ?? rows.find((m) => m.contractAddress !== null);
    const outcome = market?.outcomes[0];
    return market?.contractAddress != null && outcome !== undefined ? { market: market.contractAddress, assetId: outcome.outcomeId } : undefined;
  }, [markets.data]);
}

export function SqlConsole({ allowed, plan }: { allowed: boolean; plan: string }) {
  const params = useSearchParams();
  const [sql, setSql] = useState(() => params.get("q") ?? "");
  const target = useExampleTarget();
  const editor = useRef<HTMLTextAreaElement>(null);
  const run = useMutation({ mutationFn: (query: string) => postSql<SqlAnswer>(query) });
  const [exportError, setExportError] = useState<unknown>(undefined);

  const examples = target === undefined
    ? []
    : [
        { name: "Hourly candles (7 days)", sql: candleSql(target) },
        { name: "Latest book snapshots", sql: bookSql(target) },
        { name: "Book depth over time", sql: depthSql(target.market) },
      ];

  const submit = () => {
    if (sql.trim() !== "" && !run.isPending) run.mutate(sql);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  };
  const series = useMemo(() => (run.data === undefined ? undefined : chartableSeries(run.data)), [run.data]);
  const stats = run.data?.meta.statistics;

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
        <div className="stack">
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
            <button type="button" className="primary" onClick={submit} disabled={run.isPending || sql.trim() === ""}>
              {run.isPending ? "Running…" : "Run"}
            </button>
            <button
              type="button"
              disabled={run.data === undefined}
              onClick={async () => {
                setExportError(undefined);
                try {
                  await downloadPost("/v0/sql?format=csv", { query: run.variables ?? sql }, "brier-query.csv");
                } catch (error) {
                  setExportError(error);
                }
              }}
            >
              Download CSV
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
        </div>
        <aside className="card" aria-labelledby="examples-title">
          <h2 id="examples-title">Examples</h2>
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
                    editor.current?.focus();
                  }}
                >
                  {example.name}
                </button>
              ))
            )}
          </div>
        </aside>
      </div>
      {exportError !== undefined && <ErrorState error={exportError} title="CSV export failed" />}
      {run.isError && <ErrorState error={run.error} title="The query was refused" />}
      {run.data?.meta.rows_capped === true && (
        <p className="notice" data-testid="rows-capped">
          The result was capped at {formatInteger(run.data.meta.rows)} rows. Add a <code>LIMIT</code> or aggregate to see all of it.
        </p>
      )}
      {run.data !== undefined && series !== undefined && (
        <section className="card" aria-label="Result chart">
          <LineChart series={series} label="Chart of the query result over its time column" testId="sql-chart" />
        </section>
      )}
      {run.data !== undefined &&
        (run.data.data.length === 0 ? (
          <p className="muted">The query returned no rows.</p>
        ) : (
          <VirtualTable columns={run.data.meta.columns} rows={run.data.data} />
        ))}
    </div>
  );
}
