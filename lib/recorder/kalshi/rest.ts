import "server-only";
import { config } from "@/lib/config";
import { getJson, restUrl, type QueryValue, type RestOptions } from "../rest";

/*
 * Kalshi's public REST API (trade-api v2), typed as its documentation states it: what Brier reads
 * without pmxt-core. Each method is one documented endpoint; the wire types name only the fields
 * some reader uses, all optional because the venue may leave any out. To read another field (fees:
 * the series' `fee_type`, `fee_multiplier`), add it to the type and read it where it is used; to
 * call another endpoint (`/series/{ticker}`, `/events/fee_changes`), add a method built on `get`.
 */

/** A Kalshi market (`GET /markets`, `GET /historical/markets`, `GET /markets/{ticker}`). */
export interface KalshiMarket {
  ticker?: string;
  event_ticker?: string;
  /** initialized, inactive, active, closed, determined, disputed, amended, finalized. */
  status?: string;
  /** yes, no, scalar, or empty before determination. */
  result?: string;
  /** The YES side's payout per contract, dollars as fixed-point text ("1.0000"). */
  settlement_value_dollars?: string | null;
  /** When it settled (RFC 3339). */
  settlement_ts?: string | null;
  /** The value the result was determined from, as text. */
  expiration_value?: string | null;
  close_time?: string | null;
  expected_expiration_time?: string | null;
  latest_expiration_time?: string | null;
  settlement_timer_seconds?: number | null;
  updated_time?: string | null;
  market_type?: string;
  /** How the strike is read: greater, greater_or_equal, less, less_or_equal, between, functional, custom, structured. */
  strike_type?: string;
  floor_strike?: number | null;
  cap_strike?: number | null;
  functional_strike?: string | null;
  rules_primary?: string;
  rules_secondary?: string;
  [field: string]: unknown;
}

/** A settlement source as Kalshi names it on a series or an event (`settlement_sources`). */
export interface KalshiSettlementSource {
  name?: string;
  url?: string;
}

/** A Kalshi event (`GET /events`): the fields a reader uses, its markets when asked `with_nested_markets`. */
export interface KalshiEvent {
  event_ticker?: string;
  series_ticker?: string;
  settlement_sources?: KalshiSettlementSource[] | null;
  markets?: KalshiMarket[] | null;
  [field: string]: unknown;
}

/** A Kalshi series (`GET /series`). */
export interface KalshiSeries {
  ticker?: string;
  settlement_sources?: KalshiSettlementSource[] | null;
  [field: string]: unknown;
}

/** One page of a market listing. */
export interface KalshiMarketsPage {
  markets?: KalshiMarket[];
  /** Empty or absent on the last page. */
  cursor?: string | null;
}

/** `GET /historical/cutoff`: markets settled before `market_settled_ts` are only under `/historical/markets`. */
export interface KalshiHistoricalCutoff {
  market_settled_ts?: string | null;
  [field: string]: unknown;
}

/** The largest `limit` the market listings accept per page. */
export const KALSHI_PAGE_LIMIT = 1000;

/** The largest `limit` `/events` accepts per page. */
export const KALSHI_EVENT_PAGE_LIMIT = 200;

export interface KalshiRestOptions extends RestOptions {
  baseUrl?: string;
}

export class KalshiRest {
  readonly #options: KalshiRestOptions;

  constructor(options: KalshiRestOptions = {}) {
    this.#options = options;
  }

  /** A GET on the API (`path` from its root, e.g. `/markets`). */
  get<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    return getJson<T>("kalshi", restUrl(this.#options.baseUrl ?? config.venueRest.kalshi, path, query), this.#options);
  }

  /** Every page of a cursor-paged market listing (`/markets` or `/historical/markets`) for `query`. */
  async *marketPages(path: "/markets" | "/historical/markets", query: Record<string, QueryValue>, limit = KALSHI_PAGE_LIMIT): AsyncGenerator<KalshiMarket[]> {
    let cursor: string | undefined;
    do {
      const page = await this.get<KalshiMarketsPage>(path, { ...query, limit, cursor });
      yield Array.isArray(page.markets) ? page.markets : [];
      cursor = typeof page.cursor === "string" && page.cursor !== "" ? page.cursor : undefined;
    } while (cursor !== undefined);
  }

  /** Every page of `GET /events` for `query` (e.g. `{ status: "open", with_nested_markets: true }`), following `cursor`. */
  async *eventPages(query: Record<string, QueryValue>, limit = KALSHI_EVENT_PAGE_LIMIT): AsyncGenerator<KalshiEvent[]> {
    let cursor: string | undefined;
    do {
      const page = await this.get<{ events?: KalshiEvent[]; cursor?: string | null }>("/events", { ...query, limit, cursor });
      yield Array.isArray(page.events) ? page.events : [];
      cursor = typeof page.cursor === "string" && page.cursor !== "" ? page.cursor : undefined;
    } while (cursor !== undefined);
  }

  /** `GET /series`: every series. */
  async series(): Promise<KalshiSeries[]> {
    const answer = await this.get<{ series?: KalshiSeries[] | null }>("/series");
    return Array.isArray(answer.series) ? answer.series : [];
  }

  /** `GET /markets/{ticker}`. */
  async market(ticker: string): Promise<KalshiMarket | undefined> {
    const answer = await this.get<{ market?: KalshiMarket }>(`/markets/${encodeURIComponent(ticker)}`);
    return answer.market;
  }

  /** `GET /historical/cutoff`. */
  historicalCutoff(): Promise<KalshiHistoricalCutoff> {
    return this.get<KalshiHistoricalCutoff>("/historical/cutoff");
  }
}
