"use client";
import { useState, type CSSProperties } from "react";
import styles from "./sql.module.css";

const ROW_HEIGHT = 28;
const OVERSCAN = 10;
const VIEWPORT_HEIGHT = 420;

function cell(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * A results grid that renders only the rows in view (plus a margin), so 10,000 rows scroll as
 * smoothly as 10: the DOM holds about 40 rows whatever the result size.
 */
export interface ExpandedCell {
  row: number;
  column: string;
  type: string;
  value: string;
}

/** Cells longer than this are cut in the grid; a click shows them whole. */
const LONG_CELL = 40;

export function VirtualTable({
  columns,
  rows,
  onExpand,
}: {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  onExpand?: (cell: ExpandedCell) => void;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEWPORT_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const minWidth = `${4 + columns.length * 10}rem`;
  const template: CSSProperties = { gridTemplateColumns: `4rem repeat(${columns.length}, minmax(10rem, 1fr))`, minWidth };
  return (
    <div
      className={styles.grid}
      style={{ height: Math.min(VIEWPORT_HEIGHT, (rows.length + 1) * ROW_HEIGHT + 2) }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      role="table"
      aria-label="Query results"
      aria-rowcount={rows.length + 1}
      tabIndex={0}
      data-testid="sql-results"
    >
      <div className={styles.headRow} style={template} role="row" aria-rowindex={1}>
        <span role="columnheader" className="muted">
          #
        </span>
        {columns.map((column) => (
          <span key={column.name} role="columnheader" title={column.type}>
            {column.name} <span className="muted small">{column.type}</span>
          </span>
        ))}
      </div>
      <div style={{ height: rows.length * ROW_HEIGHT, position: "relative", minWidth }}>
        {rows.slice(first, last).map((row, offset) => {
          const index = first + offset;
          return (
            <div
              key={index}
              className={styles.row}
              role="row"
              aria-rowindex={index + 2}
              style={{ ...template, position: "absolute", top: index * ROW_HEIGHT, height: ROW_HEIGHT, left: 0, right: 0 }}
            >
              <span role="cell" className="muted">
                {index + 1}
              </span>
              {columns.map((column) => {
                const text = cell(row[column.name]);
                if (text.length > LONG_CELL && onExpand !== undefined) {
                  return (
                    <span key={column.name} role="cell">
                      <button
                        type="button"
                        className={styles.longCell}
                        title="Show the whole value"
                        onClick={() => onExpand({ row: index + 1, column: column.name, type: column.type, value: text })}
                      >
                        {text.slice(0, 400)}
                      </button>
                    </span>
                  );
                }
                return (
                  <span key={column.name} role="cell">
                    {text}
                  </span>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
