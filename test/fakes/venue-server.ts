import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";

/**
 * A loopback fake of the venues pmxt-core talks to: Polymarket (gamma-api, clob, data-api hosts)
 * and Kalshi (api.elections.kalshi.com, demo hosts), in their real wire shapes
 * (the venues' public API shapes, test/fixtures/venues). Requests arrive as
 * `http://127.0.0.1:PORT/<upstream host>/<path>?<query>` (what the per-instance interceptor and
 * VENUE_REDIRECT_URL produce); absolute-form request lines and an `X-Upstream-Host` header are
 * accepted too. Every request is recorded; any route can be made to fail on demand.
 *
 * The data served is a deep copy of test/fixtures/venues per fake, so a test may mutate
 * `fake.data` (close a market, change a volume) between two ingestions.
 */

export const GAMMA_HOST = "gamma-api.polymarket.com";
export const CLOB_HOST = "clob.polymarket.com";
export const DATA_API_HOST = "data-api.polymarket.com";
export const KALSHI_HOSTS = [
  "api.elections.kalshi.com",
  "demo-api.elections.kalshi.com",
  "demo-api.kalshi.co",
  "trading-api.kalshi.com",
] as const;

const FIXTURE_DIR = path.resolve(__dirname, "../fixtures/venues");

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function readFixture<T = Json>(name: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURE_DIR, name), "utf8")) as T;
}

/** The invented ids across the fixtures (`IDS.json`). */
export const FIXTURE_IDS = readFixture<{
  [market: string]: { cond: string; yes: string; no: string };
}>("IDS.json");

export interface RecordedRequest {
  method: string;
  /** Upstream host the client meant, e.g. `gamma-api.polymarket.com`. */
  host: string;
  /** Upstream path without the host segment, e.g. `/events`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

/**
 * How a failing route answers: an HTTP status with a JSON body, a hang (the socket stays open until
 * the fake closes), bytes that are not JSON, or a dropped connection.
 */
export type FailureMode =
  | { kind: "status"; status: number; body?: Json }
  | { kind: "hang" }
  | { kind: "garbage" }
  | { kind: "reset" };

export interface FailureRule {
  /** `host` or `host/path-prefix`, e.g. `gamma-api.polymarket.com/events` or `api.elections.kalshi.com`. */
  match: string;
  mode: FailureMode;
  /** Fail this many times, then serve normally; unlimited when absent. */
  times?: number;
}

export interface FakeVenueData {
  gammaEvents: JsonObject[];
  kalshiEvents: JsonObject[];
  kalshiSeries: JsonObject[];
  /** CLOB books by token id; `/book` of any other token answers 404 as the CLOB does. */
  clobBooks: Map<string, JsonObject>;
  pricesHistory: JsonObject;
  kalshiOrderbook: JsonObject;
  /** Kalshi `/events` page size cap (the real API allows 200); lower it to exercise cursor paging. */
  kalshiPageSize: number;
}

export interface FakeVenues {
  listen(port?: number): Promise<number>;
  close(): Promise<void>;
  /** `http://127.0.0.1:PORT` once listening. */
  readonly url: string;
  readonly data: FakeVenueData;
  readonly requests: RecordedRequest[];
  /** Requests whose upstream host (and optionally path prefix) match `host[/path]`. */
  requestsTo(match: string): RecordedRequest[];
  fail(match: string, mode: FailureMode, times?: number): void;
  /** Stop failing (one match, or all). */
  heal(match?: string): void;
  /** Restore the fixtures, clear failures and the request log. */
  reset(): void;
}

function freshData(): FakeVenueData {
  const book = readFixture<JsonObject>("polymarket_clob_book.json");
  const clobBooks = new Map<string, JsonObject>();
  if (typeof book.asset_id === "string") clobBooks.set(book.asset_id, book);
  return {
    gammaEvents: readFixture<JsonObject[]>("polymarket_gamma_events.json"),
    kalshiEvents: readFixture<{ events: JsonObject[] }>("kalshi_events.json").events,
    kalshiSeries: readFixture<{ series: JsonObject[] }>("kalshi_series.json").series,
    clobBooks,
    pricesHistory: readFixture<JsonObject>("polymarket_prices_history.json"),
    kalshiOrderbook: readFixture<JsonObject>("kalshi_orderbook.json"),
    kalshiPageSize: 200,
  };
}

interface Reply {
  status: number;
  body: Json;
}

const ok = (body: Json): Reply => ({ status: 200, body });
const notFound = (message: string): Reply => ({ status: 404, body: { error: message } });

function asArray(value: Json | undefined): Json[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") {
    try {
      const parsed = JSON.parse(value) as Json;
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      return [];
    }
  }
  return [];
}

function objects(value: Json | undefined): JsonObject[] {
  return asArray(value).filter((v): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v));
}

function boolParam(value: string | undefined): boolean | undefined {
  if (value === "true") return true;
  if (value === "false") return false;
  return undefined;
}

function pageOf<T>(items: T[], query: Record<string, string>, defaultLimit: number): T[] {
  const offset = Math.max(0, Number(query.offset ?? 0) || 0);
  const limit = Math.max(0, Number(query.limit ?? defaultLimit) || defaultLimit);
  return items.slice(offset, offset + limit);
}

function gammaMarkets(data: FakeVenueData): JsonObject[] {
  return data.gammaEvents.flatMap((event) => {
    const { markets, ...eventWithoutMarkets } = event;
    return objects(markets).map((market) => ({ ...market, events: [eventWithoutMarkets] }));
  });
}

/** Gamma: `/events`, `/markets`, `/markets/slug/{slug}`, `/public-search`. */
function routeGamma(data: FakeVenueData, pathname: string, query: Record<string, string>): Reply {
  if (pathname === "/events") {
    let events = data.gammaEvents;
    if (query.id !== undefined) events = events.filter((e) => String(e.id) === query.id);
    if (query.slug !== undefined) events = events.filter((e) => e.slug === query.slug);
    const closed = boolParam(query.closed);
    if (closed !== undefined) events = events.filter((e) => Boolean(e.closed) === closed);
    return ok(pageOf(events, query, 500));
  }
  if (pathname === "/markets") {
    let markets = gammaMarkets(data);
    if (query.id !== undefined) markets = markets.filter((m) => String(m.id) === query.id);
    if (query.slug !== undefined) markets = markets.filter((m) => m.slug === query.slug);
    if (query.condition_ids !== undefined) {
      const ids = query.condition_ids.split(",");
      markets = markets.filter((m) => ids.includes(String(m.conditionId)));
    }
    if (query.clob_token_ids !== undefined) {
      const ids = query.clob_token_ids.split(",");
      markets = markets.filter((m) => asArray(m.clobTokenIds).some((t) => ids.includes(String(t))));
    }
    const closed = boolParam(query.closed);
    if (closed !== undefined) markets = markets.filter((m) => Boolean(m.closed) === closed);
    return ok(pageOf(markets, query, 500));
  }
  const slugMatch = /^\/markets\/slug\/([^/]+)$/.exec(pathname);
  if (slugMatch) {
    const market = gammaMarkets(data).find((m) => m.slug === decodeURIComponent(slugMatch[1] ?? ""));
    return market ? ok(market) : notFound("market not found");
  }
  if (pathname === "/public-search") {
    const q = (query.q ?? "").toLowerCase();
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    const matches = data.gammaEvents.filter((e) => String(e.title ?? "").toLowerCase().includes(q));
    const events = page === 1 ? matches : [];
    return ok({ events, pagination: { hasMore: false, totalResults: matches.length } });
  }
  return notFound(`no gamma route ${pathname}`);
}

/** CLOB: `/book`, `POST /books`, `/prices-history`, `/midpoint`, `/price`. */
function routeClob(data: FakeVenueData, method: string, pathname: string, query: Record<string, string>, body: string): Reply {
  if (pathname === "/book") {
    const book = data.clobBooks.get(query.token_id ?? "");
    return book ? ok(book) : notFound("No orderbook exists for the requested token id");
  }
  if (pathname === "/books" && method === "POST") {
    let wanted: Json = [];
    try {
      wanted = JSON.parse(body) as Json;
    } catch {
      return { status: 400, body: { error: "invalid body" } };
    }
    const books = objects(wanted)
      .map((w) => data.clobBooks.get(String(w.token_id)))
      .filter((b): b is JsonObject => b !== undefined);
    return ok(books);
  }
  if (pathname === "/prices-history") {
    return ok(knownToken(data, query.market) ? data.pricesHistory : { history: [] });
  }
  if (pathname === "/midpoint" || pathname === "/price") {
    const book = data.clobBooks.get(query.token_id ?? "");
    if (!book) return notFound("No orderbook exists for the requested token id");
    const bestBid = Number(objects(book.bids).at(-1)?.price ?? 0);
    const bestAsk = Number(objects(book.asks).at(-1)?.price ?? 1);
    const mid = ((bestBid + bestAsk) / 2).toFixed(4);
    return ok(pathname === "/midpoint" ? { mid } : { price: query.side === "SELL" ? String(bestAsk) : String(bestBid) });
  }
  return notFound(`no clob route ${pathname}`);
}

function knownToken(data: FakeVenueData, token: string | undefined): boolean {
  if (token === undefined) return false;
  if (data.clobBooks.has(token)) return true;
  return gammaMarkets(data).some((m) => asArray(m.clobTokenIds).map(String).includes(token));
}

/** Data API: `/trades` — three deterministic trades for any token the catalog knows. */
function routeDataApi(data: FakeVenueData, pathname: string, query: Record<string, string>): Reply {
  if (pathname !== "/trades") return notFound(`no data-api route ${pathname}`);
  const token = query.asset_id ?? query.market ?? "";
  if (!knownToken(data, token)) return ok([]);
  const base = 1_781_351_934;
  return ok(
    [0, 1, 2].map((i) => ({
      id: `fake-trade-${i + 1}`,
      asset: token,
      timestamp: base + i * 60,
      price: [0.61, 0.62, 0.6][i] ?? 0.61,
      size: [120, 45.5, 300][i] ?? 1,
      side: i % 2 === 0 ? "BUY" : "SELL",
    })),
  );
}

function kalshiMarkets(data: FakeVenueData): JsonObject[] {
  return data.kalshiEvents.flatMap((event) => objects(event.markets));
}

function kalshiStatusMatches(event: JsonObject, status: string | undefined): boolean {
  if (status === undefined) return true;
  const statuses = objects(event.markets).map((m) => String(m.status));
  const open = statuses.some((s) => s === "active" || s === "open");
  if (status === "open") return open;
  if (status === "closed" || status === "settled") return !open;
  return true;
}

/** Kalshi `/trade-api/v2`: events (cursor paged), series, markets, orderbook, trades, candlesticks. */
function routeKalshi(data: FakeVenueData, pathname: string, query: Record<string, string>): Reply {
  const p = pathname.replace(/^\/trade-api\/v2/, "");
  if (p === "/events") {
    const withMarkets = query.with_nested_markets === "true";
    const events = data.kalshiEvents
      .filter((e) => kalshiStatusMatches(e, query.status))
      .filter((e) => query.series_ticker === undefined || e.series_ticker === query.series_ticker);
    const limit = Math.min(data.kalshiPageSize, Math.max(1, Number(query.limit ?? 200) || 200));
    // The cursor is opaque to clients; here it is the next start index.
    const start = query.cursor ? Number(Buffer.from(query.cursor, "base64url").toString()) || 0 : 0;
    const page = events.slice(start, start + limit).map((e) => {
      if (withMarkets) return e;
      const { markets: _markets, ...rest } = e;
      return rest;
    });
    const next = start + limit < events.length ? Buffer.from(String(start + limit)).toString("base64url") : "";
    return ok({ events: page, cursor: next });
  }
  const eventMatch = /^\/events\/([^/]+)$/.exec(p);
  if (eventMatch) {
    const event = data.kalshiEvents.find((e) => e.event_ticker === decodeURIComponent(eventMatch[1] ?? ""));
    if (!event) return notFound("event not found");
    const markets = objects(event.markets);
    return ok({ event: query.with_nested_markets === "true" ? event : { ...event, markets: [] }, markets });
  }
  if (p === "/series") return ok({ series: data.kalshiSeries });
  const seriesMatch = /^\/series\/([^/]+)$/.exec(p);
  if (seriesMatch) {
    const series = data.kalshiSeries.find((s) => s.ticker === decodeURIComponent(seriesMatch[1] ?? ""));
    return series ? ok({ series }) : notFound("series not found");
  }
  const candleMatch = /^\/series\/[^/]+\/markets\/([^/]+)\/candlesticks$/.exec(p);
  if (candleMatch) return ok({ ticker: decodeURIComponent(candleMatch[1] ?? ""), candlesticks: [] });
  if (p === "/markets") {
    let markets = kalshiMarkets(data);
    if (query.event_ticker !== undefined) markets = markets.filter((m) => m.event_ticker === query.event_ticker);
    if (query.tickers !== undefined) {
      const tickers = query.tickers.split(",");
      markets = markets.filter((m) => tickers.includes(String(m.ticker)));
    }
    return ok({ markets, cursor: "" });
  }
  if (p === "/markets/trades") {
    const ticker = query.ticker ?? "";
    if (!kalshiMarkets(data).some((m) => m.ticker === ticker)) return ok({ trades: [], cursor: "" });
    const trades = [0, 1, 2].map((i) => ({
      trade_id: `fake-kalshi-trade-${i + 1}`,
      ticker,
      created_time: new Date(Date.UTC(2026, 5, 13, 12, i)).toISOString(),
      yes_price_dollars: ["0.6100", "0.6200", "0.6000"][i] ?? "0.6100",
      no_price_dollars: ["0.3900", "0.3800", "0.4000"][i] ?? "0.3900",
      count_fp: ["10.00", "25.00", "3.00"][i] ?? "1.00",
      taker_side: i % 2 === 0 ? "yes" : "no",
    }));
    return ok({ trades, cursor: "" });
  }
  const bookMatch = /^\/markets\/([^/]+)\/orderbook$/.exec(p);
  if (bookMatch) {
    const ticker = decodeURIComponent(bookMatch[1] ?? "");
    return kalshiMarkets(data).some((m) => m.ticker === ticker) ? ok(data.kalshiOrderbook) : notFound("market not found");
  }
  const marketMatch = /^\/markets\/([^/]+)$/.exec(p);
  if (marketMatch) {
    const market = kalshiMarkets(data).find((m) => m.ticker === decodeURIComponent(marketMatch[1] ?? ""));
    return market ? ok({ market }) : notFound("market not found");
  }
  return notFound(`no kalshi route ${pathname}`);
}

/** Splits a request into (upstream host, path, query), accepting the three addressing forms. */
function parseTarget(req: IncomingMessage): { host: string; pathname: string; query: Record<string, string> } {
  const raw = req.url ?? "/";
  let url: URL;
  let host: string;
  if (/^https?:\/\//i.test(raw)) {
    url = new URL(raw);
    host = url.host;
  } else {
    url = new URL(raw, "http://fake.invalid");
    const header = req.headers["x-upstream-host"];
    if (typeof header === "string" && header !== "") {
      host = header;
    } else {
      const [, first = "", ...rest] = url.pathname.split("/");
      host = first;
      url.pathname = `/${rest.join("/")}`;
    }
  }
  return { host: host.toLowerCase(), pathname: url.pathname, query: Object.fromEntries(url.searchParams) };
}

function route(data: FakeVenueData, method: string, host: string, pathname: string, query: Record<string, string>, body: string): Reply {
  if (host === GAMMA_HOST) return routeGamma(data, pathname, query);
  if (host === CLOB_HOST) return routeClob(data, method, pathname, query, body);
  if (host === DATA_API_HOST) return routeDataApi(data, pathname, query);
  if ((KALSHI_HOSTS as readonly string[]).includes(host)) return routeKalshi(data, pathname, query);
  return notFound(`the fake does not serve host ${host || "(none)"}`);
}

function matches(rule: string, host: string, pathname: string): boolean {
  const slash = rule.indexOf("/");
  const ruleHost = slash === -1 ? rule : rule.slice(0, slash);
  const rulePath = slash === -1 ? "" : rule.slice(slash);
  return ruleHost.toLowerCase() === host && pathname.startsWith(rulePath);
}

export function createFakeVenues(): FakeVenues {
  let data = freshData();
  let failures: FailureRule[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let url = "";

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const { host, pathname, query } = parseTarget(req);
    const method = req.method ?? "GET";
    requests.push({ method, host, path: pathname, query, headers: { ...req.headers }, body, at: Date.now() });

    const rule = failures.find((f) => matches(f.match, host, pathname) && (f.times === undefined || f.times > 0));
    if (rule) {
      if (rule.times !== undefined) rule.times -= 1;
      const mode = rule.mode;
      if (mode.kind === "hang") return; // the socket stays open until close()
      if (mode.kind === "reset") {
        req.socket.destroy();
        return;
      }
      if (mode.kind === "garbage") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("<html>this is not json {{{");
        return;
      }
      res.writeHead(mode.status, { "content-type": "application/json" });
      res.end(JSON.stringify(mode.body ?? { error: `injected failure ${mode.status}` }));
      return;
    }

    const reply = route(data, method, host, pathname, query, body);
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(JSON.stringify(reply.body));
  };

  return {
    get url() {
      return url;
    },
    get data() {
      return data;
    },
    requests,
    requestsTo(match) {
      return requests.filter((r) => matches(match, r.host, r.path));
    },
    fail(match, mode, times) {
      failures.push({ match, mode, times });
    },
    heal(match) {
      failures = match === undefined ? [] : failures.filter((f) => f.match !== match);
    },
    reset() {
      data = freshData();
      failures = [];
      requests.length = 0;
    },
    listen(port = 0) {
      return new Promise((resolve, reject) => {
        const s = createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on("data", (chunk: Buffer) => chunks.push(chunk));
          req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
        });
        s.on("connection", (socket) => {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
        });
        s.once("error", reject);
        s.listen(port, "127.0.0.1", () => {
          server = s;
          const actual = (s.address() as AddressInfo).port;
          url = `http://127.0.0.1:${actual}`;
          resolve(actual);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server) return resolve();
        server.close(() => resolve());
        server = undefined;
      });
    },
  };
}
