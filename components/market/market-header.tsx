"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { WatchStar } from "@/components/catalog/watch-star";
import type { EventPublic, MarketPublic } from "@/lib/catalog/shapes";
import { getJson } from "@/lib/browser/api-client";
import { formatDateTime, formatVolume, marketTitle } from "@/lib/format";
import styles from "./market.module.css";

/**
 * The market's resolution as Brier recorded it (docs/outcomes.md): its state, the winner's label (or
 * a 50-50, or the settlement value), when it closed and settled, and whose word it is; nothing for
 * an open market Brier has no outcome of. A SYNTHETIC (offline demo) result says so.
 */
function ResolutionLine({ market: m }: { market: MarketPublic }) {
  const r = m.resolution;
  if (r.learnedBy === "catalog" && r.state === "open") return null;
  const winner = r.winningOutcomeId === null ? undefined : m.outcomes.find((o) => o.outcomeId === r.winningOutcomeId);
  const result =
    winner !== undefined
      ? `${winner.label} won`
      : r.settlementValue === 0.5
        ? "50-50 split"
        : r.settlementValue !== null
          ? `${m.outcomes[0]?.label ?? "Yes"} paid ${(r.settlementValue * 100).toFixed(1)}¢`
          : null;
  return (
    <span data-testid="market-resolution" data-state={r.state} data-winner={r.winningOutcomeId ?? ""} data-learned-by={r.learnedBy}>
      Resolution: {r.state}
      {result !== null && ` · ${result}`}
      {r.closedAt !== null && ` · closed ${formatDateTime(r.closedAt)}`}
      {r.settledAt !== null && ` · settled ${formatDateTime(r.settledAt)}`}{" "}
      {r.synthetic ? (
        <span className="badge" title={`Invented by the offline demo, never a venue's word. ${r.resolutionSource ?? ""}`} data-testid="market-resolution-synthetic">
          SYNTHETIC
        </span>
      ) : (
        <span className="muted">({r.learnedBy === "catalog" ? "the venue's status" : `learned by ${r.learnedBy}`})</span>
      )}
    </span>
  );
}

/** Breadcrumb (catalog / the event by name), title with the watchlist star, and the market's facts. */
export function MarketHeader({ market: m }: { market: MarketPublic }) {
  const event = useQuery({
    queryKey: ["event", m.eventId],
    queryFn: ({ signal }) => getJson<{ data: EventPublic }>(`/v0/events/${encodeURIComponent(m.eventId)}`, signal),
    staleTime: 60_000,
  });
  return (
    <header className={styles.head}>
      <nav className="small" aria-label="Breadcrumb" data-testid="breadcrumb">
        <Link href="/">Catalog</Link> <span className="muted">/</span>{" "}
        <Link href={`/events/${m.eventId}`} data-testid="breadcrumb-event">
          {event.data?.data.title ?? "Event"}
        </Link>
      </nav>
      <div className={styles.titleRow}>
        <h1>{marketTitle(m.title)}</h1>
        <WatchStar market={m} />
      </div>
      <div className={styles.meta}>
        <span className="badge">{m.exchange}</span>
        <span>{m.category}</span>
        <span>Status: {m.closed ? "closed" : (m.status ?? "open")}</span>
        <span>Resolves: {formatDateTime(m.resolutionDate)}</span>
        <ResolutionLine market={m} />
        <span>24h volume: {formatVolume(m.volume24h)}</span>
        {m.liquidity !== null && <span>Liquidity: {formatVolume(m.liquidity)}</span>}
        {m.url !== null && (
          <a href={m.url} target="_blank" rel="noopener noreferrer">
            View on {m.exchange} ↗
          </a>
        )}
      </div>
    </header>
  );
}
