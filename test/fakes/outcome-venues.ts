import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback fake of the venues' REST endpoints the outcome readers call, in their documented wire
 * shapes (docs/outcomes.md): Gamma `GET /markets/keyset` (`closed`, `order=closedTime`,
 * `ascending`, `limit`, `after_cursor` → `{ markets, next_cursor }`, no `next_cursor` on the last
 * page) and Kalshi `GET /trade-api/v2/markets` (`status` as Kalshi filters it: `closed` = past
 * close and not finalized, `settled` = finalized; `min_close_ts`; `limit`; `cursor` →
 * `{ markets, cursor }`, empty on the last page) and `GET /trade-api/v2/historical/markets`.
 * Markets are plain wire objects a test mutates between sweeps (a dispute, an amendment).
 */
export interface FakeOutcomeVenues {
  /** Base URLs for PolymarketRest (`gammaUrl`) and KalshiRest (`baseUrl`). */
  gammaUrl: string;
  kalshiUrl: string;
  gamma: Array<Record<string, unknown>>;
  kalshi: Array<Record<string, unknown>>;
  kalshiHistorical: Array<Record<string, unknown>>;
  /** Requests served, as `path?query`. */
  requests: string[];
  close: () => Promise<void>;
}

const cursorOf = (index: number) => Buffer.from(String(index)).toString("base64url");
const indexOf = (cursor: string | null) => (cursor === null || cursor === "" ? 0 : Number(Buffer.from(cursor, "base64url").toString()) || 0);

function kalshiStatusMatches(market: Record<string, unknown>, status: string | null): boolean {
  if (status === null) return true;
  const s = String(market.status);
  if (status === "settled") return s === "finalized";
  if (status === "closed") return ["closed", "determined", "disputed", "amended"].includes(s);
  if (status === "open") return s === "active";
  return false;
}

export async function startFakeOutcomeVenues(): Promise<FakeOutcomeVenues> {
  const state = { gamma: [] as Array<Record<string, unknown>>, kalshi: [] as Array<Record<string, unknown>>, kalshiHistorical: [] as Array<Record<string, unknown>> };
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    requests.push(`${url.pathname}${url.search}`);
    const q = url.searchParams;
    const send = (body: unknown, status = 200) => {
      res.statusCode = status;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/gamma/markets/keyset") {
      if (q.has("offset")) return send({ error: "offset is not supported on keyset endpoints" }, 400);
      let markets = state.gamma;
      const closed = q.get("closed");
      if (closed !== null) markets = markets.filter((m) => Boolean(m.closed) === (closed === "true"));
      if (q.get("order") === "closedTime") {
        const asc = q.get("ascending") === "true";
        markets = [...markets].sort((a, b) => String(a.closedTime ?? "").localeCompare(String(b.closedTime ?? "")) * (asc ? 1 : -1));
      }
      const limit = Math.min(1000, Math.max(1, Number(q.get("limit") ?? 20) || 20));
      const start = indexOf(q.get("after_cursor"));
      const page = markets.slice(start, start + limit);
      return send(start + limit < markets.length ? { markets: page, next_cursor: cursorOf(start + limit) } : { markets: page });
    }
    const kalshiPath = url.pathname.replace(/^\/kalshi\/trade-api\/v2/, "");
    if (kalshiPath === "/markets" || kalshiPath === "/historical/markets") {
      let markets = kalshiPath === "/markets" ? state.kalshi.filter((m) => kalshiStatusMatches(m, q.get("status"))) : state.kalshiHistorical;
      const minClose = q.get("min_close_ts");
      if (minClose !== null) markets = markets.filter((m) => Date.parse(String(m.close_time)) / 1000 >= Number(minClose));
      const limit = Math.min(1000, Math.max(1, Number(q.get("limit") ?? 100) || 100));
      const start = indexOf(q.get("cursor"));
      return send({ markets: markets.slice(start, start + limit), cursor: start + limit < markets.length ? cursorOf(start + limit) : "" });
    }
    if (kalshiPath === "/historical/cutoff") return send({ market_settled_ts: "2026-08-01T00:00:00Z" });
    return send({ error: "not found" }, 404);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    gammaUrl: `${base}/gamma`,
    kalshiUrl: `${base}/kalshi/trade-api/v2`,
    get gamma() {
      return state.gamma;
    },
    set gamma(value) {
      state.gamma = value;
    },
    get kalshi() {
      return state.kalshi;
    },
    set kalshi(value) {
      state.kalshi = value;
    },
    get kalshiHistorical() {
      return state.kalshiHistorical;
    },
    set kalshiHistorical(value) {
      state.kalshiHistorical = value;
    },
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A Gamma market in the wire shape (JSON-in-a-string arrays), closed unless `closed: false` is given. */
export function gammaMarket(id: string, conditionId: string, tokens: [string, string], fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    conditionId,
    question: `Question ${id}`,
    active: true,
    closed: true,
    archived: false,
    outcomes: JSON.stringify(["Yes", "No"]),
    clobTokenIds: JSON.stringify(tokens),
    outcomePrices: JSON.stringify(["0.5", "0.5"]),
    umaResolutionStatus: "",
    resolutionSource: "",
    ...fields,
  };
}

/** A Kalshi market in the wire shape. */
export function kalshiMarket(ticker: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ticker,
    event_ticker: ticker.split("-")[0],
    market_type: "binary",
    status: "closed",
    result: "",
    settlement_value_dollars: null,
    close_time: "2026-11-01T12:00:00Z",
    expected_expiration_time: "2026-11-01T14:00:00Z",
    latest_expiration_time: "2026-11-08T12:00:00Z",
    settlement_timer_seconds: 3600,
    updated_time: "2026-11-01T12:00:01Z",
    ...fields,
  };
}
