"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { MarketsTable } from "@/components/catalog/markets-table";
import { NotFoundState } from "@/components/ui/not-found-state";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import type { EventPublic } from "@/lib/catalog/shapes";
import { ApiError, getJson } from "@/lib/browser/api-client";
import { formatDateTime, formatVolume } from "@/lib/format";

/** The event page: one event from /v0/events/{id} with its markets. */
export function EventView({ id }: { id: string }) {
  const event = useQuery({
    queryKey: ["event", id],
    queryFn: ({ signal }) => getJson<{ data: EventPublic }>(`/v0/events/${encodeURIComponent(id)}`, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  if (event.isPending) return <SkeletonRows rows={8} height={60} />;
  if (event.isError && event.error instanceof ApiError && event.error.status === 404) {
    return <NotFoundState what="event" id={id} back={{ href: "/?view=events", label: "Back to the events" }} />;
  }
  if (event.isError) return <ErrorState error={event.error} title="This event could not be loaded" onRetry={() => void event.refetch()} />;
  const e = event.data.data;
  return (
    <div className="stack">
      <header className="stack" style={{ gap: "0.4rem" }}>
        <nav className="small" aria-label="Breadcrumb">
          <Link href="/?view=events">Events</Link>
        </nav>
        <h1>{e.title}</h1>
        <div className="row small muted">
          <span className="badge">{e.exchange}</span>
          <span>{e.category}</span>
          <span>{e.closed ? "closed" : "open"}</span>
          <span>Resolves: {formatDateTime(e.resolutionDate)}</span>
          <span>24h volume: {formatVolume(e.volume24h)}</span>
          {e.url !== null && (
            <a href={e.url} target="_blank" rel="noopener noreferrer">
              View on {e.exchange} ↗
            </a>
          )}
        </div>
        {e.tags.length > 0 && (
          <div className="row" style={{ gap: "0.3rem" }}>
            {e.tags.slice(0, 12).map((tag) => (
              <span key={tag} className="badge">
                {tag}
              </span>
            ))}
          </div>
        )}
        {e.description !== null && e.description !== "" && <p style={{ maxWidth: "75ch", margin: 0 }}>{e.description}</p>}
      </header>
      <section className="card" aria-labelledby="event-markets" style={{ overflowX: "auto" }}>
        <h2 id="event-markets">Markets ({e.markets.length})</h2>
        <MarketsTable markets={e.markets} testId="event-markets" />
      </section>
    </div>
  );
}
