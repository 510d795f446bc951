"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ErrorState, SkeletonRows } from "@/components/ui/query-state";
import { getJson } from "@/lib/browser/api-client";
import { formatBytes, formatInteger } from "@/lib/format";

interface ManifestHour {
  hour: string;
  rows: number;
  assets: number;
  checksum: string;
  condition: "available" | "degraded" | "missing" | "synthetic";
  file: { url: string; rows: number; bytes: number; checksum: string; sha256: string } | null;
}

const venues = ["polymarket", "kalshi"] as const;

/** What each hour condition means (docs/history.md, "Coverage"). */
const conditionWords: Record<ManifestHour["condition"], string> = {
  available: "recorded throughout with no incident (a quiet hour without rows too)",
  degraded: "part of the hour was not recorded, or an incident that loses or delays data touched it",
  missing: "nothing of the hour was recorded (no recorder ran)",
  synthetic: "no recorder ran; a synthetic demo history was written (admin demo-ticks, npm run demo)",
};
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The archive: per venue and UTC day, every hour with its recorder condition, rows and, once the
 * hour is closed, its Parquet file (GET /v0/archive/manifest, then the file links). Downloads are
 * Enterprise; the listing is for every plan.
 */
export function ArchiveView({ downloadAllowed, plan, today }: { downloadAllowed: boolean; plan: string; today: string }) {
  const [venue, setVenue] = useState<(typeof venues)[number]>("polymarket");
  const [date, setDate] = useState(today);
  const manifest = useQuery({
    queryKey: ["archive-manifest", venue, date],
    queryFn: ({ signal }) => getJson<{ data: { hours: ManifestHour[] } }>(`/v0/archive/manifest?date=${date}&venue=${venue}`, signal),
  });
  const shift = (days: number) => setDate(dayOf(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
  return (
    <div className="stack">
      <h1 style={{ margin: 0 }}>Archive</h1>
      <p className="muted small" style={{ margin: 0 }}>
        One Parquet file (zstd) per venue and closed UTC hour, sorted by (timestamp, market, event_type, data). Each file&apos;s ETag is the
        hour&apos;s checksum in the manifest. Bulk copies: <code>npm run --silent archive -- pull --venue {venue} --from {date} --to {date} --dir out/</code>
      </p>
      <div className="row" role="group" aria-label="Venue and day">
        <label className="row small">
          Venue
          <select value={venue} onChange={(event) => setVenue(event.target.value as (typeof venues)[number])} data-testid="archive-venue">
            {venues.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button" onClick={() => shift(-1)}>
          ← Previous day
        </button>
        <label className="row small">
          Day (UTC)
          <input type="date" value={date} max={today} onChange={(event) => event.target.value !== "" && setDate(event.target.value)} data-testid="archive-date" />
        </label>
        <button type="button" className="button" onClick={() => shift(1)} disabled={date >= today}>
          Next day →
        </button>
      </div>
      {!downloadAllowed && (
        <p className="notice" data-testid="archive-plan-notice">
          Downloading archive files is part of the Enterprise plan; your account is on the <strong>{plan}</strong> plan. The listing and checksums are
          open to every plan.
        </p>
      )}
      <section className="card" aria-labelledby="archive-hours" style={{ overflowX: "auto" }}>
        <h2 id="archive-hours">
          {venue} · {date}
        </h2>
        {manifest.isPending ? (
          <SkeletonRows rows={8} />
        ) : manifest.isError ? (
          <ErrorState error={manifest.error} title="The manifest could not be loaded" onRetry={() => void manifest.refetch()} />
        ) : (
          <table className="data" data-testid="archive-hours-table">
            <thead>
              <tr>
                <th scope="col">Hour (UTC)</th>
                <th scope="col">Condition</th>
                <th scope="col" className="num">
                  Rows
                </th>
                <th scope="col" className="num">
                  Assets
                </th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col">File</th>
              </tr>
            </thead>
            <tbody>
              {manifest.data.data.hours.map((hour) => (
                <tr key={hour.hour}>
                  <td className="mono nowrap">{hour.hour.slice(11, 16)}</td>
                  <td>
                    <span className={hour.condition === "available" ? "up" : hour.condition === "missing" ? "down" : "muted"} title={conditionWords[hour.condition]}>
                      {hour.condition}
                    </span>
                  </td>
                  <td className="num mono">{formatInteger(hour.rows)}</td>
                  <td className="num mono">{formatInteger(hour.assets)}</td>
                  <td className="num mono">{hour.file === null ? "–" : formatBytes(hour.file.bytes)}</td>
                  <td className="small">
                    {hour.file === null ? (
                      <span className="muted">{hour.rows === 0 ? "no rows" : "hour not closed yet"}</span>
                    ) : downloadAllowed ? (
                      <a href={hour.file.url} download title={`SHA-256 ${hour.file.sha256}`}>
                        {hour.file.url.split("/").slice(-2).join("/")}
                      </a>
                    ) : (
                      <span className="mono" title={`SHA-256 ${hour.file.sha256}`}>
                        {hour.file.url.split("/").slice(-2).join("/")}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="muted small" data-testid="archive-conditions">
          {(Object.keys(conditionWords) as Array<ManifestHour["condition"]>).map((condition) => `${condition}: ${conditionWords[condition]}`).join(" · ")}. The incidents behind
          a degraded hour are on the <Link href="/status">Status</Link> page.
        </p>
      </section>
    </div>
  );
}
