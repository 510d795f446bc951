"use client";
import Link from "next/link";
import { useState } from "react";
import { useQueries, useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";
import { categories } from "@/lib/catalog/categories";
import type { CalibrationFigure, CalibrationResponse } from "@/lib/calibration/shapes";
import { formatInteger } from "@/lib/format";
import { ReliabilityDiagram } from "./reliability-diagram";

const windows = { "30d": 30, "90d": 90, "365d": 365 } as const;
type WindowKey = keyof typeof windows;
const horizons = ["1h", "1d", "7d", "30d"] as const;

export const score = (value: number | null | undefined) => (value === null || value === undefined ? "–" : value.toFixed(4));

/** The drill-down's address: the markets behind one figure (a venue, a horizon, optionally a bin and a category). */
export function marketsHref(p: { venue: string; horizon: string; since: number; until: number; bins: number; bin?: number; category?: string; source?: string }): string {
  const q = new URLSearchParams({ venue: p.venue, horizon: p.horizon, since: String(p.since), until: String(p.until), bins: String(p.bins) });
  if (p.bin !== undefined) q.set("bin", String(p.bin));
  if (p.category !== undefined) q.set("category", p.category);
  if (p.source !== undefined) q.set("source", p.source);
  return `/calibration/markets?${q.toString()}`;
}

/**
 * The Calibration page: how well each venue's prices foretold the outcomes (GET /v0/calibration,
 * the API a keyed client uses). A reliability diagram with every venue on one chart at a chosen
 * horizon, the scores per venue and horizon, a table by category and horizon (one call per
 * category), and the head to head on identity pairs; every count links to the markets behind it.
 */
export function CalibrationView({ allowed }: { allowed: boolean }) {
  const [windowKey, setWindowKey] = useState<WindowKey>("365d");
  const [horizon, setHorizon] = useState<(typeof horizons)[number]>("1d");
  const [bins, setBins] = useState(10);
  const [until] = useState(() => Math.ceil(Date.now() / 60_000) * 60_000);
  const since = until - windows[windowKey] * 86_400_000;
  const base = `since=${since}&until=${until}&bins=${bins}`;
  const all = useQuery({
    queryKey: ["calibration", since, until, bins],
    queryFn: ({ signal }) => getJson<CalibrationResponse>(`/v0/calibration?${base}`, signal),
    enabled: allowed,
  });
  const byCategory = useQueries({
    queries: categories.map((category) => ({
      queryKey: ["calibration", since, until, bins, category],
      queryFn: ({ signal }: { signal: AbortSignal }) => getJson<CalibrationResponse>(`/v0/calibration?${base}&category=${encodeURIComponent(category)}`, signal),
      enabled: allowed && all.isSuccess && all.data.data.length > 0,
    })),
  });

  if (!allowed) {
    return (
      <div className="page">
        <EmptyState>
          Calibration reads the recorded order books: it needs the Pro plan. <Link href="/settings">See plans</Link>.
        </EmptyState>
      </div>
    );
  }

  const figures = all.data?.data ?? [];
  const atHorizon = figures.filter((f) => f.horizon === horizon);
  const venues = [...new Set(figures.map((f) => f.venue))];
  const cell = (figure: CalibrationFigure | undefined, category?: string) =>
    figure === undefined || figure.count === 0 ? (
      <span className="muted">–</span>
    ) : (
      <Link href={marketsHref({ venue: figure.venue, horizon: figure.horizon, since, until, bins, category })} data-testid="calibration-cell-link" title={`${figure.count} markets`}>
        {score(figure.brier)} <span className="muted small">({formatInteger(figure.count)})</span>
      </Link>
    );

  return (
    <div className="stack">
      <h1>Calibration</h1>
      <p className="muted small">
        Each resolved market&apos;s Yes price at a horizon before its close, scored against what Yes settled at: the recorded book&apos;s mid where Brier recorded it, else the catalog&apos;s
        price history; never a price from after the close. Brier score: lower is better (0.25 is a coin flip at 50%). Log loss clips forecasts to [0.001, 0.999].
      </p>
      <form className="row card" onSubmit={(e) => e.preventDefault()} aria-label="Window">
        <label>
          Closed in the last
          <select value={windowKey} onChange={(e) => setWindowKey(e.target.value as WindowKey)} data-testid="calibration-window">
            {Object.keys(windows).map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </label>
        <label>
          Diagram horizon
          <select value={horizon} onChange={(e) => setHorizon(e.target.value as (typeof horizons)[number])} data-testid="calibration-horizon">
            {horizons.map((h) => (
              <option key={h} value={h}>
                {h} before close
              </option>
            ))}
          </select>
        </label>
        <label>
          Bins
          <select value={bins} onChange={(e) => setBins(Number(e.target.value))} data-testid="calibration-bins">
            {[5, 10, 20].map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
      </form>

      {all.isPending ? (
        <SkeletonRows rows={6} />
      ) : all.isError ? (
        <ErrorState error={all.error} title="Calibration could not be loaded" onRetry={() => void all.refetch()} />
      ) : figures.length === 0 ? (
        <EmptyState>
          <span data-testid="calibration-empty">No market resolved in this window yet: calibration needs resolved markets with a price before their close.</span>
        </EmptyState>
      ) : (
        <>
          <section className="card" aria-labelledby="reliability">
            <h2 id="reliability">Reliability, {horizon} before the close</h2>
            {atHorizon.every((f) => f.count === 0) ? (
              <p className="muted">No forecast at this horizon (markets listed for less than {horizon} before they closed).</p>
            ) : (
              <ReliabilityDiagram figures={atHorizon} hrefOf={(figure, bin) => marketsHref({ venue: figure.venue, horizon: figure.horizon, since, until, bins, bin })} />
            )}
          </section>

          <section className="card" aria-labelledby="by-venue">
            <h2 id="by-venue">By venue and horizon</h2>
            <table className="data" data-testid="calibration-table">
              <thead>
                <tr>
                  <th>Venue</th>
                  <th>Horizon</th>
                  <th className="num">Markets</th>
                  <th className="num">Brier</th>
                  <th className="num">Log loss</th>
                  <th className="num" title="Forecasts from the recorded book's mid / from the catalog's price history">Book / catalog</th>
                  <th className="num" title="Over book-sourced forecasts, with the best ask a taker buying Yes pays">Brier at the taker&apos;s price</th>
                  <th className="num" title="Resolved but no price at or before the horizon">Unscored</th>
                </tr>
              </thead>
              <tbody>
                {figures.map((f) => (
                  <tr key={`${f.venue}-${f.horizon}`} data-testid="calibration-row" data-venue={f.venue} data-horizon={f.horizon}>
                    <td>{f.venue}</td>
                    <td>{f.horizon}</td>
                    <td className="num">
                      {f.count === 0 ? (
                        "0"
                      ) : (
                        <Link href={marketsHref({ venue: f.venue, horizon: f.horizon, since, until, bins })} data-testid="calibration-count-link">
                          {formatInteger(f.count)}
                        </Link>
                      )}
                    </td>
                    <td className="num" data-testid="calibration-brier">
                      {score(f.brier)}
                    </td>
                    <td className="num">{score(f.logLoss)}</td>
                    <td className="num">
                      {f.sources.book > 0 ? <Link href={marketsHref({ venue: f.venue, horizon: f.horizon, since, until, bins, source: "book" })}>{formatInteger(f.sources.book)}</Link> : "0"} /{" "}
                      {f.sources.catalog > 0 ? <Link href={marketsHref({ venue: f.venue, horizon: f.horizon, since, until, bins, source: "catalog" })}>{formatInteger(f.sources.catalog)}</Link> : "0"}
                    </td>
                    <td className="num">{f.taker.count === 0 ? "–" : `${score(f.taker.brier)} (${formatInteger(f.taker.count)})`}</td>
                    <td className="num">{formatInteger(f.unscored)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section className="card" aria-labelledby="by-category">
            <h2 id="by-category">Brier score by category and horizon</h2>
            <table className="data" data-testid="calibration-category-table">
              <thead>
                <tr>
                  <th>Category</th>
                  <th>Venue</th>
                  {horizons.map((h) => (
                    <th key={h} className="num">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {categories.flatMap((category, i) => {
                  const answer = byCategory[i];
                  if (answer?.isPending) {
                    return [
                      <tr key={category}>
                        <td>{category}</td>
                        <td colSpan={horizons.length + 1} className="muted">
                          loading…
                        </td>
                      </tr>,
                    ];
                  }
                  const found = answer?.data?.data ?? [];
                  return venues
                    .filter((venue) => found.some((f) => f.venue === venue && f.count > 0))
                    .map((venue) => (
                      <tr key={`${category}-${venue}`} data-testid="calibration-category-row" data-category={category} data-venue={venue}>
                        <td>{category}</td>
                        <td>{venue}</td>
                        {horizons.map((h) => (
                          <td key={h} className="num">
                            {cell(
                              found.find((f) => f.venue === venue && f.horizon === h),
                              category,
                            )}
                          </td>
                        ))}
                      </tr>
                    ));
                })}
              </tbody>
            </table>
          </section>

          <section className="card" aria-labelledby="head-to-head">
            <h2 id="head-to-head">Head to head on the same questions</h2>
            <p className="muted small">
              Identity pairs whose two markets both resolved, and resolved alike: each venue&apos;s Brier score on the same questions.{" "}
              {all.data.meta.disagreedPairs > 0 ? (
                <strong data-testid="calibration-disagreed">
                  {all.data.meta.disagreedPairs} pair{all.data.meta.disagreedPairs === 1 ? "" : "s"} resolved differently: proven false identities, left out.
                </strong>
              ) : null}
            </p>
            {all.data.headToHead.length === 0 ? (
              <p className="muted" data-testid="calibration-h2h-empty">
                No identity pair with both markets resolved in this window.
              </p>
            ) : (
              <table className="data" data-testid="calibration-h2h-table">
                <thead>
                  <tr>
                    <th>Venues</th>
                    <th>Horizon</th>
                    <th className="num">Pairs</th>
                    <th className="num">Brier A</th>
                    <th className="num">Brier B</th>
                  </tr>
                </thead>
                <tbody>
                  {all.data.headToHead.map((row) => (
                    <tr key={`${row.venueA}-${row.venueB}-${row.horizon}`} data-testid="calibration-h2h-row">
                      <td>
                        {row.venueA} vs {row.venueB}
                      </td>
                      <td>{row.horizon}</td>
                      <td className="num">
                        <details>
                          <summary>{formatInteger(row.pairs)}</summary>
                          <ul className="small">
                            {row.marketIds.map(([a, b]) => (
                              <li key={`${a}-${b}`}>
                                <Link href={`/markets/${a}`}>{row.venueA}</Link> · <Link href={`/markets/${b}`}>{row.venueB}</Link> ·{" "}
                                <Link href={`/pairs/${a}/${b}`}>pair</Link>
                              </li>
                            ))}
                          </ul>
                        </details>
                      </td>
                      <td className="num">{score(row.brierA)}</td>
                      <td className="num">{score(row.brierB)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </div>
  );
}
