import "server-only";
import { createRequire } from "node:module";
import path from "node:path";
import type * as Baozi from "pmxt-core/dist/exchanges/baozi";
import type * as GeminiTitan from "pmxt-core/dist/exchanges/gemini-titan";
import type * as Hyperliquid from "pmxt-core/dist/exchanges/hyperliquid";
import type * as Kalshi from "pmxt-core/dist/exchanges/kalshi";
import type * as KalshiDemo from "pmxt-core/dist/exchanges/kalshi-demo";
import type * as Limitless from "pmxt-core/dist/exchanges/limitless";
import type * as Metaculus from "pmxt-core/dist/exchanges/metaculus";
import type * as Mock from "pmxt-core/dist/exchanges/mock";
import type * as Myriad from "pmxt-core/dist/exchanges/myriad";
import type * as Opinion from "pmxt-core/dist/exchanges/opinion";
import type * as Polymarket from "pmxt-core/dist/exchanges/polymarket";
import type * as PolymarketUS from "pmxt-core/dist/exchanges/polymarket_us";
import type * as Probable from "pmxt-core/dist/exchanges/probable";
import type * as Smarkets from "pmxt-core/dist/exchanges/smarkets";
import type * as RouterModule from "pmxt-core/dist/router";

/** Each venue's module of pmxt-core, by the folder it has under `dist/exchanges`. */
interface ExchangeModules {
  baozi: typeof Baozi;
  "gemini-titan": typeof GeminiTitan;
  hyperliquid: typeof Hyperliquid;
  kalshi: typeof Kalshi;
  "kalshi-demo": typeof KalshiDemo;
  limitless: typeof Limitless;
  metaculus: typeof Metaculus;
  mock: typeof Mock;
  myriad: typeof Myriad;
  opinion: typeof Opinion;
  polymarket: typeof Polymarket;
  polymarket_us: typeof PolymarketUS;
  probable: typeof Probable;
  smarkets: typeof Smarkets;
}

// Resolved from the project root, as lib/venues/registry.ts reads pmxt-core's server files; pmxt-core
// is a server external (next.config.mjs), so the build and the tests load the same CommonJS files.
const requireFromRoot = createRequire(path.join(process.cwd(), "package.json"));

/**
 * One venue's exchange module, loaded at its first use. pmxt-core's root module loads every venue
 * and the SDKs each one needs (~2,100 files, ~100 MB RSS, 0.7 s in a fresh process; one venue
 * 0.06-0.35 s, docs/ci.md): a process that only lists the catalog or serves the mock never pays for
 * Polymarket's or Solana's clients. The classes are the very ones the root exports (Node loads each
 * file once), so `instanceof` against pmxt-core's exports and its error classes holds.
 */
export function pmxtExchangeModule<K extends keyof ExchangeModules>(venue: K): ExchangeModules[K] {
  return requireFromRoot(`pmxt-core/dist/exchanges/${venue}`) as ExchangeModules[K];
}

/** pmxt-core's Router (hosted matching), loaded at its first use. */
export function pmxtRouterModule(): typeof RouterModule {
  return requireFromRoot("pmxt-core/dist/router") as typeof RouterModule;
}
