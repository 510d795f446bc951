"use client";
import { useQuery } from "@tanstack/react-query";
import { postSql } from "@/lib/browser/api-client";
import styles from "./sql.module.css";
import type { SqlResult } from "@/lib/sql/execute";

interface TableSchema {
  name: string;
  columns: { name: string; type: string }[];
}

/** The published tables and their columns, read through POST /v0/sql itself (SHOW TABLES, SHOW COLUMNS). */
async function loadSchema(signal: AbortSignal): Promise<TableSchema[]> {
  const tables = await postSql<SqlResult>("SHOW TABLES", signal);
  const names = tables.data.map((row) => String(row.name ?? Object.values(row)[0] ?? ""));
  return Promise.all(
    names.map(async (name) => {
      const columns = await postSql<SqlResult>(`SHOW COLUMNS FROM ${name}`, signal);
      return {
        name,
        columns: columns.data.map((row) => ({ name: String(row.field ?? row.name ?? ""), type: String(row.type ?? "") })),
      };
    }),
  );
}

/** The `data` JSON's keys per event type (what JSONExtract* reads), as the recorder stores them. */
const jsonKeys = [
  ["price_change", "asset_id, price, size, side, best_bid, best_ask, hash"],
  ["book", "asset_id, bids, asks ([price, size] pairs), tick_size, hash"],
  ["last_trade_price", "asset_id, price, size, side, fee_rate_bps"],
] as const;

/** Schema panel of the SQL console: tables, columns and types, and the rule every query must follow. */
export function SchemaPanel({ allowed, onInsert }: { allowed: boolean; onInsert: (text: string) => void }) {
  const schema = useQuery({ queryKey: ["sql-schema"], queryFn: ({ signal }) => loadSchema(signal), enabled: allowed, staleTime: Infinity });
  return (
    <section className="card stack" aria-labelledby="schema-title" style={{ gap: "0.5rem" }} data-testid="schema-panel">
      <h2 id="schema-title">Schema</h2>
      <p className="small" style={{ margin: 0 }}>
        Every query must filter on <code>market</code>, each table&apos;s primary key: the condition id in{" "}
        <code>polymarket_orderbook_rust</code> (<code>WHERE market = &apos;0x…&apos;</code>), the market ticker in{" "}
        <code>kalshi_orderbook</code> (<code>WHERE market = &apos;KX…&apos;</code>). Queries without it are refused.
      </p>
      {!allowed ? (
        <p className="muted small">Available on the Enterprise plan.</p>
      ) : schema.isPending ? (
        <div className="skeleton" style={{ height: 160 }} />
      ) : schema.isError ? (
        <p className="error small">{schema.error.message}</p>
      ) : (
        schema.data.map((table) => (
          <details key={table.name} open>
            <summary>
              <code>{table.name}</code>
            </summary>
            <table className={`data small ${styles.schemaTable}`}>
              <tbody>
                {table.columns.map((column) => (
                  <tr key={column.name}>
                    <td>
                      <button type="button" className="link mono" onClick={() => onInsert(column.name)} title="Insert into the query">
                        {column.name}
                      </button>
                      {column.name === "market" && <span className="badge" style={{ marginLeft: 4 }}>required filter</span>}
                    </td>
                    <td className="mono muted">{column.type}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        ))
      )}
      <details>
        <summary className="small">Keys of the JSON column data</summary>
        <ul className="small" style={{ margin: "0.25rem 0 0", paddingLeft: "1.1rem" }}>
          {jsonKeys.map(([type, keys]) => (
            <li key={type}>
              <code>{type}</code>: {keys}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
