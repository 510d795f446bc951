"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorState } from "@/components/ui/query-state";
import { postJson } from "@/lib/browser/api-client";
import { formatDateTime, formatPrice } from "@/lib/format";
import { toNumber, type BookLevel } from "@/lib/browser/sql-answers";
import { BookLadder } from "./book-ladder";
import styles from "./market.module.css";

interface OrderBookEnvelope {
  success: boolean;
  data?: { bids?: unknown[]; asks?: unknown[]; timestamp?: number };
}

function levels(raw: unknown[] | undefined): BookLevel[] {
  const out: BookLevel[] = [];
  for (const entry of raw ?? []) {
    const level = entry as { price?: unknown; size?: unknown };
    const price = toNumber(level.price);
    const size = toNumber(level.size);
    if (price !== undefined && size !== undefined) out.push({ price, size });
  }
  return out;
}

/** The venue's current book for the charted outcome through the pass-through (fetchOrderBook), fetched on load and on demand. */
export function LiveOrderBook({ exchange, outcomeId, outcomeLabel }: { exchange: string; outcomeId: string; outcomeLabel: string }) {
  const args = [outcomeId];
  const path = `/api/${encodeURIComponent(exchange)}/fetchOrderBook`;
  const book = useQuery({
    queryKey: ["passthrough", path, outcomeId],
    queryFn: ({ signal }) => postJson<OrderBookEnvelope>(path, { args }, signal),
    staleTime: Infinity,
  });
  const bids = levels(book.data?.data?.bids).sort((a, b) => b.price - a.price);
  const asks = levels(book.data?.data?.asks).sort((a, b) => a.price - b.price);
  const bestBid = bids[0]?.price;
  const bestAsk = asks[0]?.price;
  return (
    <section className="card" aria-labelledby="live-book-title">
      <div className={styles.cardHead}>
        <h2 id="live-book-title">Live order book · {outcomeLabel}</h2>
        <div className="row">
          <Link
            className="button"
            href={`/console?exchange=${encodeURIComponent(exchange)}&method=fetchOrderBook&args=${encodeURIComponent(JSON.stringify(args))}`}
          >
            Open in console
          </Link>
          <button type="button" onClick={() => void book.refetch()} disabled={book.isFetching}>
            {book.isFetching ? "Refreshing…" : "Refresh"}
          </button>
        </div>
      </div>
      {book.isError ? (
        <ErrorState error={book.error} title="The venue's book could not be fetched" />
      ) : book.isPending ? (
        <div className="skeleton" style={{ height: 240 }} />
      ) : (
        <div className="stack">
          <span className="muted small" aria-live="polite">
            From {exchange} via /api/{exchange}/fetchOrderBook, fetched {formatDateTime(new Date(book.dataUpdatedAt))}
            {bestBid !== undefined && bestAsk !== undefined && (
              <>
                {" "}
                · best bid {formatPrice(bestBid)} · best ask {formatPrice(bestAsk)} · spread {formatPrice(bestAsk - bestBid)}
              </>
            )}
          </span>
          <BookLadder bids={bids} asks={asks} testId="live-book" />
        </div>
      )}
    </section>
  );
}
