"use client";
import { useEffect, useState } from "react";
import { BookLadder } from "@/components/market/book-ladder";
import { LiveOrderBook } from "@/components/market/live-order-book";
import { formatDateTime } from "@/lib/format";
import styles from "./streams.module.css";

type Status = "connecting" | "subscribed" | "live" | "reconnecting" | "unavailable";

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
  subscribed: "Subscribed · no book yet",
  live: "Live",
  reconnecting: "Reconnecting…",
  unavailable: "No live stream",
};

/** Subscribed without a book this long: nothing records the outcome, say so and show the venue's book once. */
const QUIET_MS = 5_000;

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
        // "Live" only once a book arrives: a subscription alone may never deliver one.
        setState((current) => ({ ...current, status: current.updates > 0 ? "live" : "subscribed" }));
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

  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    if (state.status !== "subscribed" || state.updates > 0) return;
    const timer = setTimeout(() => setQuiet(true), QUIET_MS);
    return () => clearTimeout(timer);
  }, [state.status, state.updates]);

  if (state.status === "unavailable") return <LiveOrderBook exchange={exchange} outcomeId={outcomeId} outcomeLabel={outcomeLabel} />;

  const tone = state.status === "live" ? styles.live : state.status === "connecting" || state.status === "subscribed" ? styles.connecting : styles.offline;
  return (
    <section className="card" aria-labelledby="streamed-book-title">
      <div className={styles.head}>
        <h2 id="streamed-book-title">Live order book · {outcomeLabel}</h2>
        <span className={styles.indicator} role="status" data-testid="stream-status" data-status={state.status}>
          <span className={`${styles.dot} ${tone}`} aria-hidden="true" />
          {labels[state.status]}
        </span>
      </div>
      {state.updates === 0 && quiet ? (
        <div className="stack" data-testid="stream-quiet">
          <p className="muted small" style={{ margin: 0 }}>
            No book has streamed for this outcome: no recorder records it (the Status page lists what is recorded). The venue&apos;s book right now, fetched once:
          </p>
          <LiveOrderBook exchange={exchange} outcomeId={outcomeId} outcomeLabel={outcomeLabel} />
        </div>
      ) : state.updates === 0 ? (
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
