"use client";
import { useEffect, useState } from "react";
import { BookLadder } from "@/components/market/book-ladder";
import { LiveOrderBook } from "@/components/market/live-order-book";
import { formatDateTime } from "@/lib/format";
import styles from "./streams.module.css";

type Status = "connecting" | "live" | "reconnecting" | "unavailable";

interface Level {
  price: number;
  size: number;
}

interface StreamState {
  status: Status;
  bids: Level[];
  asks: Level[];
  /** Venue time of the book shown, epoch ms; 0 before the first book. */
  timestamp: number;
  updates: number;
}

interface StreamMessage {
  event?: string;
  symbol?: string;
  data?: { bids?: Level[]; asks?: Level[]; timestamp?: number };
  error?: { code?: string; message?: string };
}

const labels: Record<Status, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  unavailable: "No live stream",
};

/**
 * The market page's live order book: GET /v0/stream (Server-Sent Events, the dashboard session)
 * delivers the outcome's current book, then every update, and the ladder redraws by itself. A
 * venue that has no book stream (the offline mock venue) falls back to the one-shot fetch.
 */
export function StreamedOrderBook(props: { exchange: string; outcomeId: string; outcomeLabel: string }) {
  // A new outcome starts from a fresh state (and a fresh connection).
  return <OutcomeStream key={`${props.exchange}:${props.outcomeId}`} {...props} />;
}

function OutcomeStream({ exchange, outcomeId, outcomeLabel }: { exchange: string; outcomeId: string; outcomeLabel: string }) {
  const [state, setState] = useState<StreamState>({ status: "connecting", bids: [], asks: [], timestamp: 0, updates: 0 });

  useEffect(() => {
    const source = new EventSource(`/v0/stream?exchange=${encodeURIComponent(exchange)}&outcomeIds=${encodeURIComponent(outcomeId)}`);
    source.onmessage = (event: MessageEvent<string>) => {
      let message: StreamMessage;
      try {
        message = JSON.parse(event.data) as StreamMessage;
      } catch {
        return;
      }
      if (message.event === "error") {
        source.close();
        setState((current) => ({ ...current, status: "unavailable" }));
        return;
      }
      if (message.event === "subscribed") {
        setState((current) => ({ ...current, status: "live" }));
        return;
      }
      if (message.event !== "data" || message.symbol !== outcomeId || message.data === undefined) return;
      const { bids = [], asks = [], timestamp = Date.now() } = message.data;
      setState((current) => ({ status: "live", bids, asks, timestamp, updates: current.updates + 1 }));
    };
    // EventSource reconnects by itself after a drop; show it.
    source.onerror = () => setState((current) => (current.status === "unavailable" ? current : { ...current, status: "reconnecting" }));
    return () => source.close();
  }, [exchange, outcomeId]);

  if (state.status === "unavailable") return <LiveOrderBook exchange={exchange} outcomeId={outcomeId} outcomeLabel={outcomeLabel} />;

  const tone = state.status === "live" ? styles.live : state.status === "connecting" ? styles.connecting : styles.offline;
  return (
    <section className="card" aria-labelledby="streamed-book-title">
      <div className={styles.head}>
        <h2 id="streamed-book-title">Live order book · {outcomeLabel}</h2>
        <span className={styles.indicator} role="status" data-testid="stream-status" data-status={state.status}>
          <span className={`${styles.dot} ${tone}`} aria-hidden="true" />
          {labels[state.status]}
        </span>
      </div>
      {state.updates === 0 ? (
        <div className="skeleton" style={{ height: 240 }} />
      ) : (
        <div className="stack">
          <span className="muted small" data-testid="stream-updated">
            Streamed from {exchange} via /v0/stream · {state.updates} {state.updates === 1 ? "update" : "updates"} · book at {formatDateTime(new Date(state.timestamp))}
          </span>
          <BookLadder bids={state.bids} asks={state.asks} testId="streamed-book" />
        </div>
      )}
    </section>
  );
}
