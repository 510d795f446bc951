import "server-only";
import type { PredictionMarketExchange } from "pmxt-core/dist/BaseExchange";
import type { BaoziExchange } from "pmxt-core/dist/exchanges/baozi";
import type { GeminiTitanExchange } from "pmxt-core/dist/exchanges/gemini-titan";
import type { HyperliquidExchange } from "pmxt-core/dist/exchanges/hyperliquid";
import type { KalshiExchange } from "pmxt-core/dist/exchanges/kalshi";
import type { KalshiDemoExchange } from "pmxt-core/dist/exchanges/kalshi-demo";
import type { LimitlessExchange } from "pmxt-core/dist/exchanges/limitless";
import type { MetaculusExchange } from "pmxt-core/dist/exchanges/metaculus";
import type { MyriadExchange } from "pmxt-core/dist/exchanges/myriad";
import type { OpinionExchange } from "pmxt-core/dist/exchanges/opinion";
import type { PolymarketExchange } from "pmxt-core/dist/exchanges/polymarket";
import type { PolymarketUSExchange } from "pmxt-core/dist/exchanges/polymarket_us";
import type { ProbableExchange } from "pmxt-core/dist/exchanges/probable";
import type { SmarketsExchange } from "pmxt-core/dist/exchanges/smarkets";
import { config } from "@/lib/config";
import { createCatalogConsistentMock } from "./mock";
import { pmxtExchangeModule, pmxtRouterModule } from "./pmxt";

/** A pmxt-core exchange instance (every venue, the mock and the router share this base class). */
export type Exchange = PredictionMarketExchange;

export interface CreateExchangeOptions {
  /** The caller's venue credentials (ExchangeCredentials in pmxt's openapi.yaml). Never logged or kept. */
  credentials?: Record<string, unknown>;
  /** router only: the Brier API key the router sends back to Brier's catalog. */
  routerApiKey?: string;
  /** router only: Brier's own base URL. */
  routerBaseUrl?: string;
  /** Overrides config.venueRedirectUrl (tests). */
  redirectUrl?: string;
}

type Credentials = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

const keyPair = (c: Credentials) => ({ apiKey: str(c.apiKey), privateKey: str(c.privateKey) });

/**
 * The public REST base of each venue whose client takes a `baseUrl` (some of them build URLs or
 * SDK clients outside the instance's axios, so the interceptor alone would miss them).
 */
const upstreamBaseUrl: Record<string, string> = {
  kalshi: "https://api.elections.kalshi.com",
  "kalshi-demo": "https://demo-api.kalshi.co",
  limitless: "https://api.limitless.exchange",
  myriad: "https://api-v2.myriadprotocol.com",
  probable: "https://market-api.probable.markets",
  opinion: "https://openapi.opinion.trade/openapi",
  metaculus: "https://www.metaculus.com/api",
};

/**
 * Builds each venue from the caller's credentials only, loading that venue's pmxt-core module at
 * its first use (lib/venues/pmxt.ts). Unlike pmxt-core's own
 * server/exchange-factory, nothing falls back to server environment variables
 * (POLYMARKET_PK, KALSHI_API_KEY, ...): on a multi-tenant service that fallback would let
 * every caller trade with the operator's account.
 */
const constructors: Record<string, (c: Credentials, o: CreateExchangeOptions) => Exchange> = {
  polymarket: (c) =>
    new (pmxtExchangeModule("polymarket").PolymarketExchange)({
      privateKey: str(c.privateKey),
      apiKey: str(c.apiKey),
      apiSecret: str(c.apiSecret),
      passphrase: str(c.passphrase),
      funderAddress: str(c.funderAddress),
      signatureType: str(c.signatureType) ?? (typeof c.signatureType === "number" ? c.signatureType : undefined),
    } as ConstructorParameters<typeof PolymarketExchange>[0]),
  limitless: (c) =>
    new (pmxtExchangeModule("limitless").LimitlessExchange)({
      privateKey: str(c.privateKey),
      apiKey: str(c.apiKey),
      apiSecret: str(c.apiSecret),
      passphrase: str(c.passphrase),
      baseUrl: str(c.baseUrl),
    } as ConstructorParameters<typeof LimitlessExchange>[0]),
  kalshi: (c) =>
    new (pmxtExchangeModule("kalshi").KalshiExchange)({
      credentials: { apiKey: str(c.apiKey), privateKey: str(c.privateKey), baseUrl: str(c.baseUrl) },
    } as ConstructorParameters<typeof KalshiExchange>[0]),
  "kalshi-demo": (c) =>
    new (pmxtExchangeModule("kalshi-demo").KalshiDemoExchange)({
      credentials: { apiKey: str(c.apiKey), privateKey: str(c.privateKey), baseUrl: str(c.baseUrl) },
    } as ConstructorParameters<typeof KalshiDemoExchange>[0]),
  probable: (c) =>
    new (pmxtExchangeModule("probable").ProbableExchange)({
      apiKey: str(c.apiKey),
      apiSecret: str(c.apiSecret),
      passphrase: str(c.passphrase),
      privateKey: str(c.privateKey),
      baseUrl: str(c.baseUrl),
    } as ConstructorParameters<typeof ProbableExchange>[0]),
  baozi: (c) => new (pmxtExchangeModule("baozi").BaoziExchange)({ privateKey: str(c.privateKey) } as ConstructorParameters<typeof BaoziExchange>[0]),
  myriad: (c) =>
    new (pmxtExchangeModule("myriad").MyriadExchange)({
      apiKey: str(c.apiKey),
      privateKey: str(c.privateKey) ?? str(c.walletAddress),
      baseUrl: str(c.baseUrl),
    } as ConstructorParameters<typeof MyriadExchange>[0]),
  opinion: (c) =>
    new (pmxtExchangeModule("opinion").OpinionExchange)({
      apiKey: str(c.apiKey),
      privateKey: str(c.privateKey),
      funderAddress: str(c.funderAddress),
      baseUrl: str(c.baseUrl),
    } as ConstructorParameters<typeof OpinionExchange>[0]),
  metaculus: (c) =>
    new (pmxtExchangeModule("metaculus").MetaculusExchange)({ apiToken: str(c.apiToken), baseUrl: str(c.baseUrl) } as ConstructorParameters<
      typeof MetaculusExchange
    >[0]),
  smarkets: (c) => new (pmxtExchangeModule("smarkets").SmarketsExchange)(keyPair(c) as ConstructorParameters<typeof SmarketsExchange>[0]),
  polymarket_us: (c) => new (pmxtExchangeModule("polymarket_us").PolymarketUSExchange)(keyPair(c) as ConstructorParameters<typeof PolymarketUSExchange>[0]),
  hyperliquid: (c) => new (pmxtExchangeModule("hyperliquid").HyperliquidExchange)(keyPair(c) as ConstructorParameters<typeof HyperliquidExchange>[0]),
  "gemini-titan": (c) =>
    new (pmxtExchangeModule("gemini-titan").GeminiTitanExchange)({ apiKey: str(c.apiKey), apiSecret: str(c.apiSecret) } as ConstructorParameters<
      typeof GeminiTitanExchange
    >[0]),
  // The offline demo venue, its book centred on each outcome's listed price (lib/venues/mock.ts).
  mock: () => createCatalogConsistentMock(),
  router: (_c, o) => new (pmxtRouterModule().Router)({ apiKey: o.routerApiKey ?? "", baseUrl: o.routerBaseUrl }),
};

/** The exchange keys this factory can build (compared against pmxt-core's list in lib/venues/registry.ts). */
export const buildableExchanges: readonly string[] = Object.keys(constructors);

/** `https://clob.polymarket.com/book?x=1` -> `${redirect}/clob.polymarket.com/book?x=1`: the venue's host becomes the first path segment of the redirect. */
export function redirectedUrl(url: string, redirect: string): string {
  const target = new URL(url);
  if (target.origin === new URL(redirect).origin) return url;
  return `${redirect}/${target.host}${target.pathname}${target.search}`;
}

/** Points every HTTP call of `exchange`'s own axios at the redirect server, and turns the client-side throttle off. */
export function redirectExchange<E extends Exchange>(exchange: E, redirect: string): E {
  exchange.http.interceptors.request.use((request) => {
    if (request.url !== undefined) {
      const absolute = new URL(request.url, request.baseURL);
      request.url = redirectedUrl(absolute.toString(), redirect);
      request.baseURL = undefined;
    }
    return request;
  });
  exchange.enableRateLimit = false;
  return exchange;
}

/**
 * A pmxt-core exchange instance for `key` (a pmxt-core exchange name). With VENUE_REDIRECT_URL set
 * (offline demo, tests), every HTTP call of the instance goes to `${VENUE_REDIRECT_URL}/${host}${path}`.
 * Throws for a key this build cannot construct.
 */
export function createExchange(key: string, options: CreateExchangeOptions = {}): Exchange {
  const build = Object.hasOwn(constructors, key) ? constructors[key] : undefined;
  if (build === undefined) throw new Error(`Unknown exchange: ${key}`);
  const redirect = options.redirectUrl ?? config.venueRedirectUrl;
  // A caller-chosen baseUrl would make Brier call any host for them (SSRF): only the redirect sets it.
  const { baseUrl: _ignored, ...credentials }: Credentials = { ...(options.credentials ?? {}) };
  const upstream = upstreamBaseUrl[key];
  if (redirect !== undefined && upstream !== undefined) {
    credentials.baseUrl = redirectedUrl(upstream, redirect).replace(/\/$/, "");
  }
  const exchange = build(credentials, options);
  exchange.http.defaults.timeout = config.venueTimeoutMs;
  if (redirect !== undefined && key !== "router") redirectExchange(exchange, redirect);
  return exchange;
}
