"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { EventPublic, ListMeta, MarketPublic } from "@/lib/catalog/shapes";
import { getJson } from "@/lib/dashboard/api-client";
import { catalogApiPath, catalogSearch, MAX_QUERY_LENGTH, parseCatalogState, type CatalogState } from "@/lib/dashboard/catalog-state";
import { formatVolume } from "@/lib/dashboard/format";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { MarketsTable } from "./markets-table";
import { OutcomePrices } from "./outcome-prices";
import styles from "./catalog.module.css";

/** A page of either view, tagged with its view: while the next view loads, the previous page stays on screen in its own table. */
type CatalogPage = { view: "markets"; data: MarketPublic[]; meta: ListMeta } | { view: "events"; data: EventPublic[]; meta: ListMeta };

const SEARCH_DEBOUNCE_MS = 300;

export function CatalogBrowser({ exchanges, categories }: { exchanges: string[]; categories: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const state = useMemo(() => parseCatalogState(new URLSearchParams(params.toString()), { exchanges, categories }), [params, exchanges, categories]);
  const [draft, setDraft] = useState(state.query);
  const lastPushed = useRef(state.query);

  // Back/forward or a shared link changes the URL: the search box follows it.
  useEffect(() => {
    if (state.query !== lastPushed.current) {
      lastPushed.current = state.query;
      setDraft(state.query);
    }
  }, [state.query]);

  const navigate = (next: Partial<CatalogState>, mode: "push" | "replace" = "push") => {
    const merged: CatalogState = { ...state, cursor: "", ...next };
    const url = `${pathname}${catalogSearch(merged)}`;
    if (mode === "replace") router.replace(url, { scroll: false });
    else router.push(url, { scroll: false });
  };

  useEffect(() => {
    if (draft.trim() === state.query.trim()) return;
    const timer = setTimeout(() => {
      lastPushed.current = draft.trim();
      navigate({ query: draft }, "replace");
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // navigate is rebuilt each render; the draft and the URL's query are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, state.query]);

  const apiPath = catalogApiPath(state);
  const query = useQuery({
    queryKey: ["catalog", apiPath],
    queryFn: async ({ signal }): Promise<CatalogPage> => {
      const view = state.view;
      const answer = await getJson<{ data: never[]; meta: ListMeta }>(apiPath, signal);
      return { view, data: answer.data, meta: answer.meta };
    },
    placeholderData: keepPreviousData,
  });

  return (
    <div className="stack">
      <div className="row">
        <h1 style={{ margin: 0 }}>Catalog</h1>
        <span className="spacer" />
        <div className={styles.viewSwitch} role="group" aria-label="View">
          <button type="button" aria-pressed={state.view === "markets"} onClick={() => navigate({ view: "markets" })}>
            Markets
          </button>
          <button type="button" aria-pressed={state.view === "events"} onClick={() => navigate({ view: "events" })}>
            Events
          </button>
        </div>
      </div>
      <form className={`card ${styles.filters}`} role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search
          <input
            type="search"
            name="q"
            placeholder="Title or slug, e.g. election"
            maxLength={MAX_QUERY_LENGTH}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        </label>
        <label>
          Venue
          <select name="exchange" value={state.exchange} onChange={(event) => navigate({ exchange: event.target.value })}>
            <option value="">All venues</option>
            {exchanges.map((exchange) => (
              <option key={exchange} value={exchange}>
                {exchange}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select name="category" value={state.category} onChange={(event) => navigate({ category: event.target.value })}>
            <option value="">All categories</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </label>
        <label className="inline" style={{ minHeight: "2.25rem" }}>
          <input type="checkbox" name="closed" checked={state.closed} onChange={(event) => navigate({ closed: event.target.checked })} />
          Include closed
        </label>
        <Link href={pathname} className="button" aria-label="Reset filters">
          Reset
        </Link>
      </form>
      <div className={styles.results} aria-live="polite" data-testid="catalog-status">
        {query.isFetching && !query.isPending ? <span className="muted small">Updating…</span> : null}
        {query.data !== undefined && !query.isFetching && (
          <span className="muted small">
            {query.data.meta.count} {state.view} on this page{state.cursor !== "" ? " (after cursor)" : ""}
          </span>
        )}
      </div>
      <section className={`card ${styles.tableWrap}`} aria-busy={query.isFetching}>
        {query.isPending ? (
          <SkeletonRows rows={10} />
        ) : query.isError ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} title="The catalog could not be loaded" />
        ) : query.data.data.length === 0 ? (
          <EmptyState>
            No {state.view} match these filters.{" "}
            {(state.query !== "" || state.exchange !== "" || state.category !== "") && <Link href={pathname}>Clear filters</Link>}
          </EmptyState>
        ) : query.data.view === "markets" ? (
          <MarketsTable markets={query.data.data} testId="markets-table" />
        ) : (
          <EventsTable events={query.data.data} />
        )}
      </section>
      <nav className={styles.pager} aria-label="Pages">
        {state.cursor !== "" && (
          <>
            <button type="button" onClick={() => router.back()}>
              ← Previous
            </button>
            <button type="button" onClick={() => navigate({ cursor: "" })}>
              First page
            </button>
          </>
        )}
        <button
          type="button"
          disabled={query.data?.meta.nextCursor == null || query.isFetching}
          onClick={() => navigate({ cursor: query.data?.meta.nextCursor ?? "" })}
        >
          Next →
        </button>
      </nav>
    </div>
  );
}

function EventsTable({ events }: { events: EventPublic[] }) {
  return (
    <table className="data" data-testid="events-table">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Top market</th>
          <th scope="col" className="num">
            Markets
          </th>
          <th scope="col" className="num">
            24h volume
          </th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => {
          const top = event.markets[0];
          return (
            <tr key={event.eventId}>
              <td style={{ minWidth: "16rem" }}>
                <Link className={styles.title} href={`/events/${event.eventId}`}>
                  {event.title}
                </Link>
                <div className="row small muted" style={{ gap: "0.4rem", marginTop: 2 }}>
                  <span className="badge">{event.exchange}</span>
                  <span>{event.category}</span>
                  {event.closed && <span className="badge">closed</span>}
                </div>
              </td>
              <td>
                {top === undefined ? (
                  <span className="muted">–</span>
                ) : (
                  <>
                    <Link href={`/markets/${top.marketId}`}>{top.title}</Link>
                    <OutcomePrices outcomes={top.outcomes} max={2} />
                  </>
                )}
              </td>
              <td className="num mono">{event.markets.length}</td>
              <td className="num mono">{formatVolume(event.volume24h)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
