import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { GammaGet } from "@/lib/recorder/polymarket/fees";
import type { KalshiGet } from "@/lib/recorder/kalshi/fees";

/**
 * A loopback fake of the venue endpoints that state a market's fee, in their real wire shapes:
 * Polymarket Gamma's `GET /markets?condition_ids=` (market objects with `feesEnabled` and
 * `feeSchedule`), and Kalshi's `GET /markets/{ticker}` (`fee_waiver_expiration_time`),
 * `GET /events/{ticker}`, `GET /series/{ticker}` (`fee_type`, `fee_multiplier`),
 * `GET /series/fee_changes` (`series_fee_change_arr`) and `GET /events/fee_changes`
 * (`event_fee_changes`, cursor-paged `pageSize` at a time). Requests arrive as
 * `/<gamma|kalshi>/<path>`; each is recorded.
 */

type Json = Record<string, unknown>;

export interface FeeVenueData {
  gammaMarkets: Json[];
  kalshiMarkets: Record<string, Json>;
  kalshiEvents: Record<string, Json>;
  kalshiSeries: Record<string, Json>;
  seriesFeeChanges: Json[];
  eventFeeChanges: Json[];
}

export interface FakeFeeVenues {
  url: string;
  data: FeeVenueData;
  requests: string[];
  gamma: GammaGet;
  kalshi: KalshiGet;
  close(): Promise<void>;
}

export async function startFakeFeeVenues(data: FeeVenueData, pageSize = 1): Promise<FakeFeeVenues> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push(`${url.pathname}${url.search}`);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const q = (name: string) => url.searchParams.get(name);
    const path = url.pathname;
    if (path === "/gamma/markets") {
      const ids = (q("condition_ids") ?? "").split(",");
      return reply(200, data.gammaMarkets.filter((m) => ids.includes(String(m.conditionId))));
    }
    const kalshi = /^\/kalshi\/trade-api\/v2(\/.*)$/.exec(path)?.[1];
    if (kalshi === "/series/fee_changes") {
      const series = q("series_ticker");
      const historical = q("show_historical") === "true";
      const now = Date.now();
      return reply(200, { series_fee_change_arr: data.seriesFeeChanges.filter((c) => (series === null || c.series_ticker === series) && (historical || Date.parse(String(c.scheduled_ts)) > now)) });
    }
    if (kalshi === "/events/fee_changes") {
      const rows = data.eventFeeChanges.filter((c) => q("event_ticker") === null || c.event_ticker === q("event_ticker"));
      const start = Number(q("cursor") ?? "0");
      const page = rows.slice(start, start + pageSize);
      return reply(200, { event_fee_changes: page, cursor: start + pageSize < rows.length ? String(start + pageSize) : "" });
    }
    const one = (kind: string, table: Record<string, Json>) => {
      const match = new RegExp(`^/${kind}/([^/]+)$`).exec(kalshi ?? "");
      if (match === null) return false;
      const row = table[decodeURIComponent(match[1] ?? "")];
      if (row === undefined) reply(404, { error: { code: "not_found", message: `${kind} not found` } });
      else reply(200, { [kind === "series" ? "series" : kind.slice(0, -1)]: row });
      return true;
    };
    if (one("markets", data.kalshiMarkets) || one("events", data.kalshiEvents) || one("series", data.kalshiSeries)) return;
    reply(404, { error: `no route ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const getter = (prefix: string) => async (path: string, query: Record<string, string>) => {
    const response = await fetch(`${base}${prefix}${path}?${new URLSearchParams(query).toString()}`);
    if (!response.ok) throw new Error(`${prefix}${path}: HTTP ${response.status}`);
    return (await response.json()) as unknown;
  };
  return {
    url: base,
    data,
    requests,
    gamma: getter("/gamma"),
    kalshi: getter("/kalshi/trade-api/v2"),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
