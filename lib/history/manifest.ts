import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db";
import { InvalidParameterError } from "@/lib/errors";
import { tickTable } from "@/lib/ticks/ddl/0001_polymarket_orderbook";
import { HOUR_MS, hourlyCoverage } from "./coverage-model";
import { assetIncidents, journalWindow, runSpans } from "./journal";
import { manifestResponse, type ManifestHour, type ManifestQuery } from "./shapes";
import { chTime, historyClient } from "./ticks";

/**
 * The line of one row in the checksum (docs/history.md, "Manifest"): venue time in epoch ms,
 * market, event type and the stored JSON, tab-separated, newline-terminated; rows sorted by
 * (timestamp, market, event_type, data), duplicates counted once.
 */
export function checksumLine(timestampMs: number, market: string, eventType: string, data: string): string {
  return `${timestampMs}\t${market}\t${eventType}\t${data}\n`;
}

/**
 * GET /v0/archive/manifest: per UTC hour of a day, rows, assets, a checksum a client can recompute
 * over the rows it copied, and the hour's condition. Hours after now are not listed.
 */
export async function archiveManifest(db: Db, query: ManifestQuery, now = Date.now()) {
  const dayStart = Date.parse(`${query.date}T00:00:00Z`);
  if (dayStart > now) throw new InvalidParameterError("date", "date is in the future");
  const dayEnd = Math.min(dayStart + 24 * HOUR_MS, Math.ceil(now / HOUR_MS) * HOUR_MS);
  const client = await historyClient();
  const marketFilter = query.market === undefined ? "" : "AND market = {market:String}";
  const result = await client.query({
    query: `SELECT DISTINCT toUnixTimestamp64Milli(timestamp) AS ts, market, event_type, data FROM ${tickTable}
      WHERE timestamp >= {from:DateTime64(3)} AND timestamp < {to:DateTime64(3)} ${marketFilter}
      ORDER BY timestamp, market, event_type, data`,
    query_params: { from: chTime(dayStart), to: chTime(dayEnd), ...(query.market === undefined ? {} : { market: query.market }) },
    format: "JSONCompactEachRow",
  });
  const hours = new Map<number, { hash: ReturnType<typeof createHash>; rows: number; assets: Set<string> }>();
  for (let hour = dayStart; hour < dayEnd; hour += HOUR_MS) hours.set(hour, { hash: createHash("sha256"), rows: 0, assets: new Set() });
  for await (const batch of result.stream<[number | string, string, string, string]>()) {
    for (const line of batch) {
      const [ts, market, eventType, data] = line.json();
      const ms = Number(ts);
      const hour = hours.get(Math.floor(ms / HOUR_MS) * HOUR_MS);
      if (hour === undefined) continue;
      hour.hash.update(checksumLine(ms, market, eventType, data));
      hour.rows += 1;
      const asset = /"asset_id":"([^"]*)"/.exec(data)?.[1];
      if (asset !== undefined) hour.assets.add(asset);
    }
  }
  const window = await journalWindow(db, dayStart, dayEnd);
  const runs = runSpans(window, now);
  const { incidents } = assetIncidents(window, undefined, now);
  const conditions = new Map(hourlyCoverage({ since: dayStart, until: dayEnd, now, runs, subscribed: runs, lost: [], incidents }).map((h) => [h.hour, h.condition]));
  const data: ManifestHour[] = [...hours].map(([hour, entry]) => ({
    hour: new Date(hour).toISOString(),
    rows: entry.rows,
    assets: entry.assets.size,
    checksum: entry.hash.digest("hex"),
    condition: conditions.get(hour) ?? "missing",
  }));
  return manifestResponse.parse({ data: { date: query.date, market: query.market ?? null, checksum: { algorithm: "sha256", order: "timestamp, market, event_type, data", line: "<epoch ms>\\t<market>\\t<event_type>\\t<data>\\n" }, hours: data } });
}
