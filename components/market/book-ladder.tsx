import type { BookLevel } from "@/lib/browser/sql-answers";
import { formatPrice, formatSize } from "@/lib/format";
import styles from "./market.module.css";

/** Bid/ask ladder: best levels on top, each row's bar proportional to its size within the shown levels. */
export function BookLadder({ bids, asks, depth = 10, testId }: { bids: BookLevel[]; asks: BookLevel[]; depth?: number; testId?: string }) {
  const shownBids = bids.slice(0, depth);
  const shownAsks = asks.slice(0, depth);
  const max = Math.max(1, ...shownBids.map((l) => l.size), ...shownAsks.map((l) => l.size));
  const side = (levels: BookLevel[], tone: "up" | "down", caption: string) => (
    <table className="data">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{tone === "up" ? "Bid" : "Ask"}</th>
          <th scope="col" className="num">
            Size (shares)
          </th>
        </tr>
      </thead>
      <tbody>
        {levels.length === 0 ? (
          <tr>
            <td colSpan={2} className="muted">
              No levels
            </td>
          </tr>
        ) : (
          levels.map((level) => (
            <tr
              key={level.price}
              style={{
                background: `linear-gradient(to left, color-mix(in srgb, var(--${tone}) 18%, transparent) ${(level.size / max) * 100}%, transparent 0)`,
              }}
            >
              <td className={`mono ${tone}`}>{formatPrice(level.price)}</td>
              <td className="num mono">{formatSize(level.size)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
  return (
    <div className={styles.ladder} data-testid={testId}>
      {side(shownBids, "up", "Bids, best first")}
      {side(shownAsks, "down", "Asks, best first")}
    </div>
  );
}
