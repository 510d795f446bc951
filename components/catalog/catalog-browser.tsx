"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import type { VenueCatalogStatus } from "@/lib/catalog/status";
import type { EventPublic, ListMeta, MarketPublic } from "@/lib/catalog/shapes";
import { downloadText, getJson } from "@/lib/browser/api-client";
import { eventsCsv, marketsCsv } from "@/lib/browser/catalog-csv";
import {
  CATALOG_PAGE_SIZE,
  catalogApiPath,
  catalogSearch,
  catalogSorts,
  filterWatchlist,
  isCatalogSort,
  pageRange,
  parseCatalogState,
  type CatalogState,
} from "@/lib/browser/catalog-state";
import { MAX_QUERY_LENGTH } from "@/lib/catalog/limits";
import { formatAge, formatInteger, formatVolume, marketTitle } from "@/lib/format";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { MarketsTable } from "./markets-table";
import { OutcomePrices } from "./outcome-prices";
import { useWatchlist } from "./watch-star";
import styles from "./catalog.module.css";

/** The list meta with the totals the API adds (exact up to a bound, estimated beyond). */
type PageMeta = ListMeta & { total?: number | null; totalEstimate?: number | null };

/** A page of either view, tagged with its view: while the next view loads, the previous page stays on screen in its own table. */
type CatalogPage = { view: "markets"; data: MarketPublic[]; meta: PageMeta } | { view: "events"; data: EventPublic[]; meta: PageMeta };

const SEARCH_DEBOUNCE_MS = 300;
/** The CSV export walks the view's pages up to this many rows. */
const EXPORT_MAX_ROWS = 5_000;
const EXPORT_PAGE = 500;

/** While a venue's ingestion runs, the status is asked again this often, so its outcome replaces "running" on screen. */
const RUNNING_REFETCH_MS = 3_000;

/** Per-venue ingestion health from GET /v0/status: market counts for the venue menu, the last error for an empty venue. */
function useVenueStatus() {
  return useQuery({
    queryKey: ["status"],
    queryFn: ({ signal }) => getJson<{ catalog?: { venues?: VenueCatalogStatus[] } }>("/v0/status", signal),
    staleTime: 60_000,
    refetchInterval: (query) =>
      (query.state.data?.catalog?.venues ?? []).some((venue) => venue.lastRun?.outcome === "running") ? RUNNING_REFETCH_MS : false,
    select: (answer) => new Map((answer.catalog?.venues ?? []).map((venue) => [venue.venue, venue])),
  });
}

/** `/` anywhere but in a field focuses the search box (as on most data sites). */
function useSlashFocus(input: React.RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target !== null && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [input]);
}

export function CatalogBrowser({ exchanges, categories }: { exchanges: string[]; categories: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const state = useMemo(() => parseCatalogState(new URLSearchParams(params.toString()), { exchanges, categories }), [params, exchanges, categories]);
  const [draft, setDraft] = useState(state.query);
  const lastPushed = useRef(state.query);
  const searchInput = useRef<HTMLInputElement>(null);
  useSlashFocus(searchInput);
  const venues = useVenueStatus();
  const watchlist = useWatchlist();
  const [exporting, setExporting] = useState<string | undefined>(undefined);
  const [exportError, setExportError] = useState<unknown>(undefined);

  // Back/forward or a shared link changes the URL: the search box follows it.
  useEffect(() => {
    if (state.query !== lastPushed.current) {
      lastPushed.current = state.query;
      setDraft(state.query);
    }
  }, [state.query]);

  const navigate = (next: Partial<CatalogState>, mode: "push" | "replace" = "push") => {
    const merged: CatalogState = { ...state, cursor: "", page: 1, ...next };
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
  const listView = state.view === "watchlist" ? undefined : state.view;
  const query = useQuery({
    queryKey: ["catalog", apiPath],
    queryFn: async ({ signal }): Promise<CatalogPage> => {
      const view = listView ?? "markets";
      const answer = await getJson<{ data: never[]; meta: PageMeta }>(apiPath, signal);
      return { view, data: answer.data, meta: answer.meta };
    },
    placeholderData: keepPreviousData,
    enabled: listView !== undefined,
  });
  const starred = useMemo(() => (watchlist.data === undefined ? undefined : filterWatchlist(watchlist.data.data, state)), [watchlist.data, state]);

  const meta = query.data?.meta;
  const total = { exact: meta?.total ?? null, estimate: meta?.totalEstimate ?? null };
  const atEnd = meta === undefined || meta.nextCursor === null || (total.exact !== null && state.page * CATALOG_PAGE_SIZE >= total.exact);
  const selectedVenue = state.exchange === "" ? undefined : venues.data?.get(state.exchange);
  const venueIsEmpty = selectedVenue !== undefined && selectedVenue.markets.total === 0;

  const exportCsv = async () => {
    setExportError(undefined);
    const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
    try {
      if (state.view === "watchlist") {
        downloadText(marketsCsv(starred ?? []), `brier-watchlist-${stamp}.csv`);
        return;
      }
      const rows: unknown[] = [];
      let cursor = "";
      setExporting("0");
      do {
        const page = await getJson<{ data: unknown[]; meta: PageMeta }>(catalogApiPath({ ...state, cursor }, EXPORT_PAGE));
        rows.push(...page.data);
        cursor = page.meta.nextCursor ?? "";
        setExporting(formatInteger(rows.length));
      } while (cursor !== "" && rows.length < EXPORT_MAX_ROWS);
      const kept = rows.slice(0, EXPORT_MAX_ROWS);
      downloadText(
        state.view === "events" ? eventsCsv(kept as EventPublic[]) : marketsCsv(kept as MarketPublic[]),
        `brier-${state.view}-${stamp}.csv`,
      );
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(undefined);
    }
  };

  const venueLabel = (exchange: string) => {
    const venue = venues.data?.get(exchange);
    if (venue === undefined) return exchange;
    return `${exchange} (${formatInteger(state.closed ? venue.markets.total : venue.markets.open)})`;
  };

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
          <button type="button" aria-pressed={state.view === "watchlist"} onClick={() => navigate({ view: "watchlist" })}>
            ★ Watchlist{watchlist.data !== undefined ? ` (${watchlist.data.data.length})` : ""}
          </button>
        </div>
      </div>
      <form className={`card ${styles.filters}`} role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          <span>
            Search <kbd className="muted small" title="Press / to focus the search box">/</kbd>
          </span>
          <input
            ref={searchInput}
            type="search"
            name="q"
            aria-label="Search"
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
                {venueLabel(exchange)}
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
        <label>
          Sort by
          <select name="sort" value={state.sort} onChange={(event) => isCatalogSort(event.target.value) && navigate({ sort: event.target.value })}>
            {Object.entries(catalogSorts).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
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
      <div className={styles.toolbar}>
        <span className="small" aria-live="polite" data-testid="catalog-status">
          {state.view === "watchlist" ? (
            starred !== undefined && `${formatInteger(starred.length)} starred market${starred.length === 1 ? "" : "s"}${starred.length !== watchlist.data?.data.length ? ` shown of ${formatInteger(watchlist.data?.data.length)}` : ""}`
          ) : query.data !== undefined ? (
            <>
              <strong data-testid="page-range">{pageRange(state.page, query.data.meta.count, CATALOG_PAGE_SIZE, total)}</strong> {state.view}
              {query.isFetching && <span className="muted"> · updating…</span>}
            </>
          ) : null}
        </span>
        <span className="spacer" />
        {exporting !== undefined && <span className="muted small">Exporting… {exporting} rows</span>}
        <button type="button" onClick={() => void exportCsv()} disabled={exporting !== undefined} data-testid="export-csv">
          Export CSV
        </button>
      </div>
      {exportError !== undefined && <ErrorState error={exportError} title="The CSV export failed" />}
      {/* A full page keeps its height while the next one loads; the short lists (watchlist, an empty venue) do not need it. */}
      <section
        className={`card ${styles.tableWrap} ${state.view === "watchlist" || venueIsEmpty ? styles.compact : ""}`}
        aria-busy={query.isFetching}
      >
        {state.view === "watchlist" ? (
          watchlist.isPending ? (
            <SkeletonRows rows={6} />
          ) : watchlist.isError ? (
            <ErrorState error={watchlist.error} onRetry={() => void watchlist.refetch()} title="The watchlist could not be loaded" />
          ) : starred === undefined || starred.length === 0 ? (
            <EmptyState>
              {watchlist.data.data.length === 0 ? (
                <>No starred markets yet. Star a market (☆) in the Markets view or on its page to follow it here.</>
              ) : (
                <>No starred market matches these filters.</>
              )}
            </EmptyState>
          ) : (
            <MarketsTable markets={starred} testId="watchlist-table" />
          )
        ) : query.isPending ? (
          <SkeletonRows rows={10} />
        ) : query.isError ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} title="The catalog could not be loaded" />
        ) : query.data.data.length === 0 ? (
          venueIsEmpty && selectedVenue !== undefined ? (
            <EmptyVenue venue={selectedVenue} />
          ) : (
            <EmptyState>
              No {state.view} match these filters.{" "}
              {state.view === "events" && state.query !== "" && (
                <>
                  The Events view searches event titles, and a word may be only in its markets&apos; questions:{" "}
                  <button type="button" className="link" onClick={() => navigate({ view: "markets" })} data-testid="search-markets-instead">
                    search the markets for “{state.query}”
                  </button>{" "}
                  or{" "}
                </>
              )}
              {(state.query !== "" || state.exchange !== "" || state.category !== "") && <Link href={pathname}>Clear filters</Link>}
            </EmptyState>
          )
        ) : query.data.view === "markets" ? (
          <MarketsTable markets={query.data.data} testId="markets-table" />
        ) : (
          <EventsTable events={query.data.data} />
        )}
      </section>
      {state.view !== "watchlist" && (
        <nav className={styles.pager} aria-label="Pages">
          {state.page > 1 && <span className="muted small">Page {state.page}</span>}
          {state.cursor !== "" && (
            <>
              <button type="button" onClick={() => navigate({ cursor: "" })}>
                First page
              </button>
              <button type="button" onClick={() => router.back()}>
                ← Previous
              </button>
            </>
          )}
          <button
            type="button"
            disabled={atEnd || query.isFetching}
            onClick={() => navigate({ cursor: query.data?.meta.nextCursor ?? "", page: state.page + 1 })}
          >
            Next →
          </button>
        </nav>
      )}
    </div>
  );
}

/** A venue with no market ingested: what its last ingestion said, and where to look further. */
function EmptyVenue({ venue }: { venue: VenueCatalogStatus }) {
  const run = venue.lastRun;
  return (
    <div className={`notice ${styles.venueNotice}`} data-testid="empty-venue">
      <strong>Nothing has been ingested from {venue.venue} yet.</strong>{" "}
      {run === null ? (
        <>Its catalog poller has not run yet.</>
      ) : (
        <>
          Last ingestion {run.outcome} {formatAge(run.startedAt)} ({run.trigger})
          {run.error !== null && (
            <>
              : <code data-testid="empty-venue-error">{run.error}</code>
            </>
          )}
          .
        </>
      )}{" "}
      <Link href="/status">See Status</Link> for every venue&apos;s ingestion.
    </div>
  );
}

function EventsTable({ events }: { events: EventPublic[] }) {
  return (
    <table className="data" data-testid="events-table">
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Top market · price · 24h change</th>
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
                    <Link href={`/markets/${top.marketId}`}>{marketTitle(top.title)}</Link>
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
