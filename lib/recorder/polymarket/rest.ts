import "server-only";
import { config } from "@/lib/config";
import { getJson, restUrl, type QueryValue, type RestOptions } from "../rest";

/*
 * Polymarket's public REST APIs, typed as their documentation states them (Gamma market objects,
 * the CLOB market): what Brier reads without pmxt-core. Each method is one documented endpoint;
 * the wire types name only the fields some reader uses, all optional because the venue may leave
 * any out. To read another field (fees: `feesEnabled`, `feeSchedule`), add it to `GammaMarket` and
 * read it where it is used; to call another endpoint, add a method built on `gamma`/`clob`.
 */

/** A Gamma market (`GET /markets/keyset`): the fields the readers use. JSON-in-a-string fields stay strings. */
export interface GammaMarket {
  id?: string;
  conditionId?: string;
  question?: string;
  slug?: string;
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  /** When the market closed (written when it resolves); Gamma sends "YYYY-MM-DD HH:MM:SS+00" text. */
  closedTime?: string | null;
  endDate?: string | null;
  /** JSON text: the outcome labels, e.g. `["Yes","No"]`. */
  outcomes?: string;
  /** JSON text: the outcome prices; 1/0 after resolution, 0.5/0.5 for a 50-50 split. */
  outcomePrices?: string;
  /** JSON text: the CLOB token ids (the outcome ids), in the order of `outcomes`. */
  clobTokenIds?: string;
  /** UMA's status of the resolution request: proposed, disputed, resolved (empty before any proposal). */
  umaResolutionStatus?: string | null;
  /** JSON text: every UMA status the market went through, in order. */
  umaResolutionStatuses?: string | null;
  umaEndDate?: string | null;
  /** The address that resolved it. */
  resolvedBy?: string | null;
  /** The source the market's rules name for the result. */
  resolutionSource?: string | null;
  updatedAt?: string | null;
  [field: string]: unknown;
}

/** A Gamma event (`GET /events`): the fields a reader uses, with its markets. */
export interface GammaEvent {
  id?: string;
  /** The source the event's rules name for the result (its markets may name their own). */
  resolutionSource?: string | null;
  markets?: GammaMarket[] | null;
  [field: string]: unknown;
}

/** One page of `GET /markets/keyset`. */
export interface GammaMarketsPage {
  markets?: GammaMarket[];
  /** Absent on the last page. */
  next_cursor?: string | null;
}

/** A CLOB market (`GET /markets/{condition_id}`): `tokens[].winner` is set once resolved. */
export interface ClobMarket {
  condition_id?: string;
  closed?: boolean;
  tokens?: Array<{ token_id?: string; outcome?: string; price?: number; winner?: boolean }>;
  [field: string]: unknown;
}

/**
 * Markets per `/markets/keyset` page. Published clients disagree on the cap (100 or 1,000); 100 is
 * within both, and the sweep's cost is the venue's answer time, not the page count.
 */
export const GAMMA_PAGE_LIMIT = 100;

export interface PolymarketRestOptions extends RestOptions {
  gammaUrl?: string;
  clobUrl?: string;
}

export class PolymarketRest {
  readonly #options: PolymarketRestOptions;

  constructor(options: PolymarketRestOptions = {}) {
    this.#options = options;
  }

  /** A GET on Gamma (`path` from its root, e.g. `/markets/keyset`). */
  gamma<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    return getJson<T>("polymarket", restUrl(this.#options.gammaUrl ?? config.venueRest.polymarketGamma, path, query), this.#options);
  }

  /** A GET on the CLOB API. */
  clob<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    return getJson<T>("polymarket", restUrl(this.#options.clobUrl ?? config.venueRest.polymarketClob, path, query), this.#options);
  }

  /**
   * Every page of `GET /markets/keyset` for `query` (e.g. `{ closed: true }`), following
   * `next_cursor` as `after_cursor` until the venue sends none.
   */
  async *marketPages(query: Record<string, QueryValue>, limit = GAMMA_PAGE_LIMIT): AsyncGenerator<GammaMarket[]> {
    let cursor: string | undefined;
    do {
      const page = await this.gamma<GammaMarketsPage>("/markets/keyset", { ...query, limit, after_cursor: cursor });
      yield Array.isArray(page.markets) ? page.markets : [];
      cursor = typeof page.next_cursor === "string" && page.next_cursor !== "" ? page.next_cursor : undefined;
    } while (cursor !== undefined);
  }

  /** Every page of `GET /events` for `query` (e.g. `{ closed: false }`), by `offset` until a short page. */
  async *eventPages(query: Record<string, QueryValue>, limit = GAMMA_PAGE_LIMIT): AsyncGenerator<GammaEvent[]> {
    for (let offset = 0; ; offset += limit) {
      const page = await this.gamma<GammaEvent[] | null>("/events", { ...query, limit, offset });
      const events = Array.isArray(page) ? page : [];
      yield events;
      if (events.length < limit) return;
    }
  }

  /** `GET /markets/{condition_id}` on the CLOB. */
  clobMarket(conditionId: string): Promise<ClobMarket> {
    return this.clob<ClobMarket>(`/markets/${encodeURIComponent(conditionId)}`);
  }
}
