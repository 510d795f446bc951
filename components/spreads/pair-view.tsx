"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";
import { formatInteger, formatPrice } from "@/lib/format";
import type { EpisodeDay, EpisodesResponse, PairPublic, SpreadPoint, SpreadsPage } from "@/lib/spreads/shapes";
import { BooksChart, NetSpreadChart } from "./spread-charts";

/** Windows the page offers, each with a grid fine enough to see an episode of a few minutes and at most 5,000 points. */
const windows = {
  "6h": { ms: 6 * 3_600_000, interval: "10s" },
  "24h": { ms: 86_400_000, interval: "1m" },
  "7d": { ms: 7 * 86_400_000, interval: "5m" },
} as const;
type WindowKey = keyof typeof windows;

const cents = (value: number | null | undefined) => (value === null || value === undefined ? "–" : `${(Math.round(value * 1000) / 10).toFixed(1)}¢`);
const duration = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : ms < 3_600_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`);
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
const direction = (pair: PairPublic, d: "aToB" | "bToA") => (d === "aToB" ? `buy on ${pair.a.exchange}, sell on ${pair.b.exchange}` : `buy on ${pair.b.exchange}, sell on ${pair.a.exchange}`);

const basisText = { market: "the market's own fee", schedule: "the venue's schedule", upper_bound: "an upper bound" } as const;

/** A side's fee as the answer states it: the formula, the version and where it comes from. */
function feeText(fee: PairPublic["a"]["fee"]): string {
  if (!fee.known) return `unknown: ${fee.note}`;
  return `${fee.takerRate} × C × (P(1−P))${fee.exponent === 2 ? "²" : ""} (${fee.schedule}${fee.basis === null ? "" : `, ${basisText[fee.basis]}`})`;
}

/** A side's recorded outcome in words: its state, and what its outcome pays once stated. */
function settlementText(settlement: PairPublic["a"]["settlement"]): string {
  if (settlement === null) return "not recorded";
  const pays = settlement.pays === null ? "" : `, pays ${formatPrice(settlement.pays)}`;
  return `${settlement.state}${pays}${settlement.settledAt === null ? "" : ` (${utc(settlement.settledAt)})`}`;
}

/**
 * The share of the window each side's book was known, and the stretches it was not (a gap in either
 * book is a gap in the spread). The figures come from the day summary (`days`, the every-change
 * series, the same as the day table); the strips from the grid the charts show.
 */
function Coverage({ points, since, until, days }: { points: SpreadPoint[]; since: number; until: number; days: EpisodeDay[] | undefined }) {
  const span = Math.max(1, until - since);
  const knownOf = (side: "a" | "b") => (days === undefined ? undefined : days.reduce((total, d) => total + (side === "a" ? d.knownAMs : d.knownBMs), 0));
  const strip = (side: "a" | "b") => {
    const segments: Array<{ start: number; end: number; known: boolean; reason: string | null }> = [];
    points.forEach((point, i) => {
      const end = points[i + 1]?.t ?? until;
      const reason = point.unknown?.[side] ?? null;
      const last = segments[segments.length - 1];
      if (last !== undefined && last.known === (reason === null) && last.reason === reason) last.end = end;
      else segments.push({ start: point.t, end, known: reason === null, reason });
    });
    return segments;
  };
  return (
    <div data-testid="pair-coverage">
      {(["a", "b"] as const).map((side) => {
        const segments = strip(side);
        const known = knownOf(side);
        return (
          <div key={side} className="small" style={{ margin: "0.25rem 0" }}>
            <span className="muted" data-testid={`pair-coverage-${side}-figure`}>
              Book {side.toUpperCase()} {known === undefined ? "coverage loading" : `known ${duration(known)} of ${duration(span)} (${((100 * known) / span).toFixed(1)}%)`}
            </span>
            <div style={{ display: "flex", height: 8, borderRadius: 2, overflow: "hidden", background: "var(--border)" }} data-testid={`pair-coverage-${side}`}>
              {segments.map((s) => (
                <span
                  key={s.start}
                  title={s.known ? `known ${utc(s.start)} – ${utc(s.end)}` : `unknown (${s.reason?.replaceAll("_", " ")}) ${utc(s.start)} – ${utc(s.end)}`}
                  data-known={s.known}
                  style={{ width: `${(100 * (s.end - s.start)) / span}%`, background: s.known ? "var(--up)" : "var(--down)", opacity: s.known ? 0.6 : 0.8 }}
                />
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/**
 * The pair's live value from its Server-Sent Events stream (GET /v0/pairs/{a}/{b}/spreads/stream,
 * priced from both recorders' live books at every change): the newest point, or why there is none
 * (the stream's error event, e.g. a side no recorder follows).
 */
function useLiveSpread(base: string, size: number, enabled: boolean): { point: SpreadPoint | undefined; error: string | undefined } {
  const url = `${base}/spreads/stream?size=${size}`;
  // What the stream of `url` said last; a stream of another size says nothing yet.
  const [state, setState] = useState<{ url: string; point: SpreadPoint | undefined; error: string | undefined }>({ url, point: undefined, error: undefined });
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource(url);
    source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as { event?: string; data?: SpreadPoint; error?: { message: string } };
      if (event.event === "data" && event.data !== undefined) setState({ url, point: event.data, error: undefined });
      if (event.event === "error") {
        setState({ url, point: undefined, error: event.error?.message ?? "the live stream failed" });
        source.close();
      }
    };
    source.addEventListener("close", () => source.close());
    return () => source.close();
  }, [url, enabled]);
  return state.url === url ? { point: state.point, error: state.error } : { point: undefined, error: undefined };
}

/**
 * The pair page: both recorded books' best bid and ask on one time axis, the executable spread
 * after both venues' fees for a chosen size beneath with its episodes marked, each venue's
 * recording coverage, the episodes and the daily summary, and the live value (the pair's SSE stream).
 * Everything comes from /v0/pairs/{a}/{b}/spreads and /episodes, the API a keyed client uses.
 */
export function PairView({ a, b, allowed }: { a: string; b: string; allowed: boolean }) {
  const [windowKey, setWindowKey] = useState<WindowKey>("24h");
  // The size box as typed, and the size asked for: 400 ms after the last keystroke, one request.
  // PAIR_PAGE_SIZE (lib/spreads/shapes.ts): the size whose closed days are folded ahead.
  const [sizeText, setSizeText] = useState("100");
  const [size, setSize] = useState(100);
  useEffect(() => {
    const timer = setTimeout(() => setSize(Math.max(1, Math.min(100_000, Math.round(Number(sizeText)) || 1))), 400);
    return () => clearTimeout(timer);
  }, [sizeText]);
  const [minSpread, setMinSpread] = useState(0);
  const [until] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  const since = until - windows[windowKey].ms;
  const base = `/v0/pairs/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
  const series = useQuery({
    queryKey: ["pair-spreads", a, b, windowKey, size, until],
    queryFn: ({ signal }) => getJson<SpreadsPage>(`${base}/spreads?since=${since}&until=${until}&interval=${windows[windowKey].interval}&size=${size}&limit=5000`, signal),
    enabled: allowed,
    // The previous answer stays on screen (header, title, charts) while a new window or size loads.
    placeholderData: keepPreviousData,
  });
  const episodes = useQuery({
    queryKey: ["pair-episodes", a, b, windowKey, size, minSpread, until],
    queryFn: ({ signal }) => getJson<EpisodesResponse>(`${base}/episodes?since=${since}&until=${until}&size=${size}&minSpread=${minSpread}&limit=200`, signal),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
  const live = useLiveSpread(base, size, allowed);

  if (!allowed) {
    return (
      <div className="page">
        <EmptyState>
          Spreads read the recorded order books: they need the Pro plan. <Link href="/settings">See plans</Link>.
        </EmptyState>
      </div>
    );
  }
  const pair = series.data?.meta.pair ?? episodes.data?.meta.pair;
  const now = live.point;
  const loading = series.isPlaceholderData || episodes.isPlaceholderData;
  return (
    <div className="page" data-testid="pair-page">
      <header className="card">
        {pair === undefined ? (
          <SkeletonRows rows={2} />
        ) : (
          <>
            <h1 data-testid="pair-title">
              <Link href={`/markets/${pair.a.marketId}`}>{pair.a.title}</Link> <span className="muted">({pair.a.exchange})</span> ↔ <Link href={`/markets/${pair.b.marketId}`}>{pair.b.title}</Link>{" "}
              <span className="muted">({pair.b.exchange})</span>
            </h1>
            <p className="small">
              <span className="badge">{pair.relation ?? "not matched"}</span> priced as <b>{pair.pricing}</b>: A = {pair.a.outcomeLabel} on {pair.a.exchange}, B = {pair.b.outcomeLabel} on {pair.b.exchange}.
            </p>
            <p className="small" data-testid="pair-settlement">
              {pair.a.settlement === null && pair.b.settlement === null ? (
                <span className="muted">No outcome recorded for either market yet.</span>
              ) : (
                <>
                  Outcome: A {settlementText(pair.a.settlement)}; B {settlementText(pair.b.settlement)}.
                  {pair.closed === null ? null : (
                    <>
                      {" "}
                      The spread closed at <b>{formatPrice(pair.closed.difference)}</b> a contract (A paid {formatPrice(pair.closed.aPays)}, B {formatPrice(pair.closed.bPays)}
                      {pair.closed.difference === 0 ? ": both settled alike" : ": the two settled differently"}).
                    </>
                  )}
                </>
              )}
            </p>
            <p className="small muted" data-testid="pair-fees">
              Fees: {pair.a.exchange} {feeText(pair.a.fee)}; {pair.b.exchange} {feeText(pair.b.fee)}.
            </p>
          </>
        )}
        <div className="toolbar" style={{ display: "flex", gap: "1rem", flexWrap: "wrap", alignItems: "end" }}>
          <label>
            Window{" "}
            <select value={windowKey} onChange={(e) => setWindowKey(e.target.value as WindowKey)} data-testid="pair-window">
              {Object.keys(windows).map((key) => (
                <option key={key} value={key}>
                  last {key}
                </option>
              ))}
            </select>
          </label>
          <label>
            Size (contracts){" "}
            <input type="number" min={1} max={100000} value={sizeText} onChange={(e) => setSizeText(e.target.value)} data-testid="pair-size" style={{ width: "7rem" }} />
          </label>
          <label>
            Episode threshold (¢){" "}
            <input type="number" step={0.1} value={minSpread * 100} onChange={(e) => setMinSpread((Number(e.target.value) || 0) / 100)} style={{ width: "5rem" }} />
          </label>
          <span data-testid="pair-live" className="small">
            Now:{" "}
            {live.error !== undefined ? (
              <span className="muted">{live.error}</span>
            ) : now === undefined ? (
              <span className="muted">waiting for the live books…</span>
            ) : now.known ? (
              <>
                net <b className={now.best !== null && now.best > 0 ? "up" : ""}>{cents(now.best)}</b> a contract for {size} ({utc(now.t)})
              </>
            ) : (
              <span className="down">unknown: {[now.unknown?.a, now.unknown?.b].filter((r) => r !== null && r !== undefined).map((r) => r.replaceAll("_", " ")).join(", ")}</span>
            )}
          </span>
          {loading ? (
            <span className="small muted" data-testid="pair-loading">
              loading…
            </span>
          ) : null}
        </div>
      </header>

      <section className="card">
        <h2>Best bid and ask, both venues</h2>
        {series.isPending ? (
          <SkeletonRows rows={6} height={40} />
        ) : series.isError ? (
          <ErrorState error={series.error} title="The spread could not be loaded" onRetry={() => void series.refetch()} />
        ) : series.data.data.length === 0 ? (
          <EmptyState>No recorded book of this pair in the window.</EmptyState>
        ) : (
          <>
            <BooksChart points={series.data.data} labelA={`A ${series.data.meta.pair.a.exchange}`} labelB={`B ${series.data.meta.pair.b.exchange}`} />
            <h2>Executable spread after fees, {formatInteger(size)} contracts</h2>
            <NetSpreadChart points={series.data.data} episodes={episodes.data?.data.episodes ?? []} threshold={minSpread} />
            <p className="small muted">The better of the two directions, per contract, both books walked for the size and each venue&apos;s taker fee subtracted; green above the threshold. A gap is an instant where either book was not known: it is never interpolated.</p>
            <Coverage points={series.data.data} since={series.data.meta.since} until={series.data.meta.until} days={episodes.data?.meta.since === series.data.meta.since ? episodes.data.data.days : undefined} />
          </>
        )}
      </section>

      <section className="card">
        <h2>Episodes above {cents(minSpread)} after fees</h2>
        {episodes.isPending ? (
          <SkeletonRows rows={3} />
        ) : episodes.isError ? (
          <ErrorState error={episodes.error} title="Episodes could not be loaded" onRetry={() => void episodes.refetch()} />
        ) : (
          <>
            <table className="data" data-testid="pair-days">
              <thead>
                <tr>
                  <th>Day (UTC)</th>
                  <th className="num">Both books known</th>
                  <th className="num">Episodes</th>
                  <th className="num">Executable for</th>
                  <th className="num">Longest</th>
                  <th className="num">Peak</th>
                  <th className="num">Size at peak</th>
                </tr>
              </thead>
              <tbody>
                {episodes.data.data.days.map((d) => (
                  <tr key={d.day}>
                    <td>{d.day}</td>
                    <td className="num">{duration(d.knownMs)}</td>
                    <td className="num">{d.episodes}</td>
                    <td className="num">{duration(d.executableMs)}</td>
                    <td className="num">{d.longestMs === 0 ? "–" : duration(d.longestMs)}</td>
                    <td className="num">{cents(d.peak)}</td>
                    <td className="num">{d.sizeAtPeak === null ? "–" : formatInteger(d.sizeAtPeak)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {episodes.data.data.episodes.length === 0 ? (
              <EmptyState>The spread after fees never stayed above the threshold in this window.</EmptyState>
            ) : (
              <table
                className="data"
                data-testid="pair-episodes"
                data-since={episodes.data.meta.since}
                data-until={episodes.data.meta.until}
                aria-busy={episodes.isPlaceholderData}
              >
                <thead>
                  <tr>
                    <th>Start (UTC)</th>
                    <th className="num">Duration</th>
                    <th>Direction</th>
                    <th className="num">Peak after fees</th>
                    <th className="num">Gross at peak</th>
                    <th className="num">Size at peak</th>
                    <th>Ended</th>
                  </tr>
                </thead>
                <tbody>
                  {episodes.data.data.episodes.map((e) => (
                    <tr key={`${e.direction}-${e.start}`} data-testid="pair-episode">
                      <td className="mono">{utc(e.start)}</td>
                      <td className="num">{duration(e.durationMs)}</td>
                      <td>{direction(episodes.data.meta.pair, e.direction)}</td>
                      <td className="num up">{cents(e.peak)}</td>
                      <td className="num">{formatPrice(e.grossAtPeak)}</td>
                      <td className="num">{formatInteger(e.sizeAtPeak)}</td>
                      <td className="muted">{e.endedBy.replaceAll("_", " ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </section>
    </div>
  );
}
