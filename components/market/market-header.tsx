"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { WatchStar } from "@/components/catalog/watch-star";
import type { EventPublic, MarketPublic } from "@/lib/catalog/shapes";
import { getJson } from "@/lib/browser/api-client";
import { formatDateTime, formatVolume, marketTitle } from "@/lib/format";
import styles from "./market.module.css";

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
