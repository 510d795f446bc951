"use client";
import { useQuery } from "@tanstack/react-query";
import { RecorderIncidents } from "@/components/history/recorder-incidents";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import type { VenueCatalogStatus } from "@/lib/catalog/status";
import type { RecorderStatusSection } from "@/lib/recorder/stats";
import { getJson } from "@/lib/browser/api-client";
import { formatAge, formatDateTime, formatInteger, formatSecondsAgo } from "@/lib/format";

interface StatusAnswer {
  service?: {
    startedAt?: string;
    uptimeSeconds?: number;
    stores?: Record<string, string>;
    abortedRequests?: { total: number; byRoute: Record<string, number> };
  };
  catalog?: { pollSeconds?: number; venues?: VenueCatalogStatus[] };
  recorder?: Partial<RecorderStatusSection> & Record<string, unknown>;
  kalshiRecorder?: Partial<RecorderStatusSection> & Record<string, unknown>;
  pairs?: { resolved: number; disagreed: number };
}

function ageTone(seconds: number | null, pollSeconds: number): string {
  if (seconds === null) return "down";
  return seconds > Math.max(pollSeconds, 60) * 3 ? "down" : "up";
}

/** GET /v0/status, refreshed every 15 s: per-venue catalog health and recorder health. */
export function StatusView() {
  const status = useQuery({
    queryKey: ["status"],
    queryFn: ({ signal }) => getJson<StatusAnswer>("/v0/status", signal),
    refetchInterval: 15_000,
  });
  if (status.isPending) return <SkeletonRows rows={8} />;
  if (status.isError) return <ErrorState error={status.error} title="Status could not be loaded" onRetry={() => void status.refetch()} />;
  const { service, catalog, recorder, kalshiRecorder, pairs } = status.data;
  const pollSeconds = catalog?.pollSeconds ?? 60;
  return (
    <div className="stack">
      <div className="row">
        <h1 style={{ margin: 0 }}>Status</h1>
        <span className="spacer" />
        <span className="muted small" aria-live="polite">
          Updated {formatAge(new Date(status.dataUpdatedAt))} · refreshes every 15 s
        </span>
      </div>
      {service !== undefined && (
        <p className="muted small" style={{ margin: 0 }} data-testid="up-since">
          Up since {formatDateTime(service.startedAt)} (process start) · stores:{" "}
          {Object.entries(service.stores ?? {})
            .map(([name, kind]) => `${name} ${kind}`)
            .join(", ")}
          {service.abortedRequests !== undefined && (
            <span data-testid="aborted-requests">
              {" "}
              · requests whose client disconnected first: {formatInteger(service.abortedRequests.total)}
              {service.abortedRequests.total > 0 &&
                ` (${Object.entries(service.abortedRequests.byRoute)
                  .sort(([, a], [, b]) => b - a)
                  .slice(0, 3)
                  .map(([route, n]) => `${route} ${formatInteger(n)}`)
                  .join(", ")})`}
            </span>
          )}
        </p>
      )}
      <section className="card" aria-labelledby="catalog-health" style={{ overflowX: "auto" }}>
        <h2 id="catalog-health">Catalog ingestion {catalog !== undefined && <span className="muted small">(polls every {pollSeconds} s)</span>}</h2>
        {catalog?.venues === undefined ? (
          <p className="muted">The catalog poller reports nothing yet.</p>
        ) : (
          <table className="data" data-testid="catalog-status-table">
            <thead>
              <tr>
                <th scope="col">Venue</th>
                <th scope="col">Last success</th>
                <th scope="col">Data age</th>
                <th scope="col">Last run</th>
                <th scope="col" className="num">
                  Markets (open / total)
                </th>
                <th scope="col" className="num">
                  Seen last run
                </th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {catalog.venues.map((venue) => (
                <tr key={venue.venue}>
                  <td>
                    <span className="badge">{venue.venue}</span>
                  </td>
                  <td className="nowrap">{formatDateTime(venue.lastSuccessAt)}</td>
                  <td className={`nowrap ${ageTone(venue.dataAgeSeconds, pollSeconds)}`}>
                    {venue.dataAgeSeconds === null ? "no data yet" : formatSecondsAgo(venue.dataAgeSeconds)}
                  </td>
                  <td className="nowrap">
                    {venue.lastRun === null ? (
                      <span className="muted">never</span>
                    ) : (
                      <>
                        <span className={venue.lastRun.outcome === "succeeded" ? "up" : venue.lastRun.outcome === "running" ? "muted" : "down"}>
                          {venue.lastRun.outcome}
                        </span>{" "}
                        <span className="muted small">
                          {formatAge(venue.lastRun.startedAt)} · {venue.lastRun.trigger}
                        </span>
                      </>
                    )}
                  </td>
                  <td className="num mono">
                    {formatInteger(venue.markets.open)} / {formatInteger(venue.markets.total)}
                  </td>
                  <td className="num mono nowrap">
                    {venue.lastRun === null ? "–" : `${formatInteger(venue.lastRun.eventsSeen)} ev · ${formatInteger(venue.lastRun.marketsSeen)} mk`}
                  </td>
                  <td className="small" style={{ maxWidth: "22rem" }}>
                    {venue.lastRun?.error ?? <span className="muted">–</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-labelledby="recorder-health">
        <h2 id="recorder-health">
          Polymarket order-book recorder <span className="muted small">(polymarket_orderbook_rust)</span>
        </h2>
        {recorder === undefined ? (
          <p className="muted">The recorder reports nothing in this deployment (disabled, or running as its own process).</p>
        ) : (
          <RecorderTable recorder={recorder} testId="recorder-status-table" />
        )}
      </section>
      <section className="card" aria-labelledby="kalshi-recorder-health">
        <h2 id="kalshi-recorder-health">
          Kalshi order-book recorder <span className="muted small">(kalshi_orderbook)</span>
        </h2>
        {kalshiRecorder === undefined ? (
          <p className="muted">This deployment reports no Kalshi recorder.</p>
        ) : (
          <RecorderTable recorder={kalshiRecorder} testId="kalshi-recorder-status-table" />
        )}
      </section>
      {pairs === undefined ? null : (
        <section className="card" aria-labelledby="pair-outcomes">
          <h2 id="pair-outcomes">Identity pairs audited by their outcomes</h2>
          <p data-testid="status-pair-outcomes">
            {pairs.resolved} pair{pairs.resolved === 1 ? "" : "s"} with both markets resolved;{" "}
            <strong className={pairs.disagreed > 0 ? "down" : undefined}>{pairs.disagreed}</strong> resolved differently (proven false identities, read by the matching fit as negatives).
          </p>
        </section>
      )}
      <RecorderIncidents />
    </div>
  );
}

/** Rows whose value is prose (reasons, venue messages), not a figure. */
const proseRows = new Set(["Why no asset", "Why not recording", "Last venue error"]);

function RecorderTable({ recorder, testId }: { recorder: NonNullable<StatusAnswer["recorder"]>; testId: string }) {
  const text = (name: string, key: string): [string, string][] => (typeof recorder[key] === "string" ? [[name, recorder[key]]] : []);
  const rows: [string, string][] = [
    ["Running", recorder.running === undefined ? "–" : recorder.running ? "yes" : "no"],
    ...text("Mode", "mode"),
    ...text("Why not recording", "reason"),
    ["Connections (open / total)", recorder.connections === undefined ? "–" : `${recorder.connections.open} / ${recorder.connections.total}`],
    ["Subscribed assets", formatInteger(recorder.subscribedAssets)],
    ...(typeof recorder.subscribedMarkets === "number" ? ([["Subscribed markets", formatInteger(recorder.subscribedMarkets)]] as [string, string][]) : []),
    ...(typeof recorder.idleReason === "string" ? ([["Why no asset", recorder.idleReason]] as [string, string][]) : []),
    ["Frames per second", formatInteger(recorder.framesPerSecond)],
    ["Rows per second", formatInteger(recorder.rowsPerSecond)],
    ["Rows written", formatInteger(recorder.rowsWritten)],
    ["Rows buffered", formatInteger(recorder.rowsBuffered)],
    ["Last frame", recorder.lastFrameAt === undefined ? "–" : recorder.lastFrameAt === null ? "never" : `${formatDateTime(recorder.lastFrameAt)} (${formatAge(recorder.lastFrameAt)})`],
    ["Lag (received − venue time)", recorder.lagMs === undefined || recorder.lagMs === null ? "–" : `${formatInteger(recorder.lagMs)} ms`],
    ["Reconnects", formatInteger(recorder.reconnects)],
    ["Errors", formatInteger(recorder.errors)],
    ["Malformed frames", formatInteger(recorder.malformedFrames)],
    ["Back-pressure", recorder.backPressure === undefined ? "–" : recorder.backPressure ? "yes" : "no"],
    ...(typeof recorder.sequenceGaps === "number" ? ([["Sequence gaps (resubscribed)", formatInteger(recorder.sequenceGaps)]] as [string, string][]) : []),
    ...text("Last venue error", "lastVenueError"),
  ];
  return (
    <table className="data" data-testid={testId} style={{ maxWidth: 560 }}>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name} data-testid={name === "Why no asset" ? "recorder-idle-reason" : name === "Why not recording" ? "recorder-not-recording-reason" : undefined}>
            <th scope="row">{name}</th>
            <td className={proseRows.has(name) ? "small" : "mono"}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
