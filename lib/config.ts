import { z } from "zod";
import { LOG_LEVELS, parsePort } from "./server-settings.mjs";

/**
 * Every environment variable Brier reads, parsed and defaulted once (docs/architecture.md: configuration lives only here).
 * The defaults give the embedded setup: PGlite and chDB under DATA_DIR, no servers needed.
 * Nothing else in the code base reads process.env but lib/server-settings.mjs, the few settings
 * server.mjs and next.config.mjs need before the bundle loads (PORT is parsed by its function here
 * too); pmxt-core reads its own venue URL overrides, e.g. POLYMARKET_GAMMA_URL, documented in the README.
 */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const booleanFlag = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", "on", "off"])
    .default(fallback ? "true" : "false")
    .transform((value) => ["true", "1", "yes", "on"].includes(value));

const commaList = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== ""),
  )
  .optional();

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const port = parsePort(raw);
      if (port === undefined) {
        ctx.addIssue({ code: "custom", message: "must be a TCP port (1–65535)" });
        return z.NEVER;
      }
      return port;
    }),
  /** Directory of the embedded stores (PGlite in `pg/`, chDB in `ch/`) and of the generated auth secret. */
  DATA_DIR: z.string().trim().min(1).default(".data"),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  /**
   * The embedded PostgreSQL's buffer cache (PGlite's `shared_buffers`), in MB. PGlite touches all of
   * it at start and its WebAssembly heap never shrinks, so it is resident from the first second
   * (docs/performance.md, "Memory"); pages beyond it are read from the OS file cache.
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(4096).default(32),
  CLICKHOUSE_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  CLICKHOUSE_USER: z.string().default("default"),
  CLICKHOUSE_PASSWORD: z.string().default(""),
  /** Dedicated read-only user of POST /v0/sql on a ClickHouse server (DDL: npm run clickhouse-reader-ddl). */
  CLICKHOUSE_READER_USER: optionalString,
  CLICKHOUSE_READER_PASSWORD: z.string().default(""),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a plain identifier")
    .default("default"),
  /** Signs session cookies. When unset, a random secret is generated once and kept in DATA_DIR. */
  NEXTAUTH_SECRET: optionalString,
  NEXTAUTH_URL: optionalString,
  GITHUB_ID: optionalString,
  GITHUB_SECRET: optionalString,
  RATE_LIMIT_FREE: positiveInt(60),
  RATE_LIMIT_PRO: positiveInt(1000),
  RATE_LIMIT_ENTERPRISE: positiveInt(6000),
  /** Bearer secret that GET /api/cron/ingest requires (Vercel cron). Unset: the route answers 401. */
  CRON_SECRET: optionalString,
  CATALOG_VENUES: commaList,
  CATALOG_POLL_SECONDS: z.coerce.number().int().min(0).default(60),
  VENUE_TIMEOUT_MS: positiveInt(15_000),
  /** Offline/test mode: every venue HTTP call goes to `${VENUE_REDIRECT_URL}/${upstreamHost}${path}` (a local fake); so do the recorders' channels whose URL is not set. */
  VENUE_REDIRECT_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Per API key cap on venue calls in flight on the pass-through surface; more answer 429. */
  PASSTHROUGH_MAX_CONCURRENT: positiveInt(8),
  /** Longest a long-polled watchOrderBook/watchTrades waits for the next update before answering 504. */
  PASSTHROUGH_WATCH_TIMEOUT_MS: positiveInt(25_000),
  POLYMARKET_WS_URL: z.url({ protocol: /^wss?$/ }).default("wss://ws-subscriptions-clob.polymarket.com/ws/market"),
  /** The venues' REST APIs Brier reads itself (outcomes, fees: lib/recorder/<venue>/rest.ts); VENUE_REDIRECT_URL applies to them too. */
  POLYMARKET_GAMMA_URL: z.url({ protocol: /^https?$/ }).default("https://gamma-api.polymarket.com"),
  POLYMARKET_CLOB_URL: z.url({ protocol: /^https?$/ }).default("https://clob.polymarket.com"),
  KALSHI_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.elections.kalshi.com/trade-api/v2"),
  /** 0 is allowed: the recorder runs and follows no asset (the status page says why). */
  RECORDER_MAX_ASSETS: z.coerce.number().int().nonnegative().default(2000),
  RECORDER_ENABLED: booleanFlag(true),
  /** Kalshi's order-book channel needs an API key: its id and RSA private key (PEM text, `\n` escapes allowed, or a file). */
  KALSHI_API_KEY_ID: optionalString,
  KALSHI_PRIVATE_KEY: optionalString,
  KALSHI_PRIVATE_KEY_PATH: optionalString,
  KALSHI_WS_URL: z.url({ protocol: /^wss?$/ }).default("wss://api.elections.kalshi.com/trade-api/ws/v2"),
  /** Kalshi markets recorded (each is two outcome books); 0 records none. */
  KALSHI_RECORDER_MAX_MARKETS: z.coerce.number().int().nonnegative().default(1000),
  KALSHI_RECORDER_ENABLED: booleanFlag(true),
  /** Set to false to keep the server from running ingestion and the recorder in-process. */
  BACKGROUND_JOBS: booleanFlag(true),
  /** Seconds after start before the first fold ahead of pairs' closed days (lib/spreads/days-ahead.ts); bench:web sets it later to time a view asked while it runs. */
  // At most a day: a timer past 2^31 ms would fire at once.
  SPREAD_DAYS_AHEAD_AFTER_SECONDS: z.coerce.number().int().nonnegative().max(86_400).default(5),
  /** `npm run demo` sets it: the SYNTHETIC demo venues keep ticking while the server runs (lib/demo/live.ts), and they, not a poll, price the mock venue. */
  DEMO_LIVE: booleanFlag(false),
  /** NATS server of the live fan-out (recorder -> every web instance); unset: in-process (embedded setup). */
  NATS_URL: optionalString.pipe(z.url({ protocol: /^(nats|tls|wss?)$/ }).optional()),
  /** Subject prefix of the live fan-out on NATS (several deployments may share one NATS server). */
  NATS_SUBJECT_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "must be dot-separated tokens").default("brier.live"),
  /** Concurrent stream subscriptions per key, by plan (/ws and /v0/stream). */
  STREAM_SUBSCRIPTIONS_FREE: positiveInt(5),
  STREAM_SUBSCRIPTIONS_PRO: positiveInt(100),
  STREAM_SUBSCRIPTIONS_ENTERPRISE: positiveInt(1000),
  /** Open stream connections per key, across every web instance. */
  STREAM_CONNECTIONS_PER_KEY: positiveInt(10),
  /** Longest a stream subscriber waits between writes: every update since its last write goes out together. 0: every turn of the event loop. */
  STREAM_TICK_MS: z.coerce.number().int().min(0).max(1_000).default(20),
  /** Bytes a connection may have unsent before its book updates coalesce to the latest per symbol. */
  STREAM_BUFFER_BYTES: positiveInt(1024 * 1024),
  /** Messages a connection may hold waiting (coalesced books + trades) before it is closed as a slow consumer. */
  STREAM_MAX_PENDING: positiveInt(10_000),
  /** A connection behind for longer than this is closed as a slow consumer. */
  STREAM_SLOW_CONSUMER_MS: positiveInt(10_000),
  /** The Brier API the archive CLI pulls from, and the key it sends (flags override both). */
  BRIER_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
  BRIER_API_KEY: optionalString,
  /** Per-key limits on PostgreSQL: how long a lease outlives its instance's last renewal (a killed instance's counts expire after it). */
  LIMIT_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(600_000).default(5_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
});

export type Env = z.infer<typeof envSchema>;

export type Plan = "free" | "pro" | "enterprise";

export interface Config {
  nodeEnv: Env["NODE_ENV"];
  port: number;
  dataDir: string;
  /** True when Postgres is the embedded PGlite (no DATABASE_URL). */
  embeddedPostgres: boolean;
  /** PGlite's `shared_buffers` in MB (PGLITE_SHARED_BUFFERS_MB). */
  pgliteSharedBuffersMb: number;
  /** True when ClickHouse is the embedded chDB (no CLICKHOUSE_URL). */
  embeddedClickhouse: boolean;
  databaseUrl: string | undefined;
  clickhouse: {
    url: string | undefined;
    user: string;
    password: string;
    database: string;
    /** The SQL reader's own credentials; unset, the reader uses the writer's user with readonly=2. */
    reader: { user: string; password: string } | undefined;
  };
  auth: { secret: string | undefined; url: string | undefined; github: { id: string; secret: string } | undefined };
  rateLimits: Record<Plan, number>;
  cronSecret: string | undefined;
  catalog: { venues: string[] | undefined; pollSeconds: number };
  venueTimeoutMs: number;
  /** Base URLs of the venues' REST APIs Brier calls without pmxt-core (no trailing slash). */
  venueRest: { polymarketGamma: string; polymarketClob: string; kalshi: string };
  venueRedirectUrl: string | undefined;
  passthrough: { maxConcurrentPerKey: number; watchTimeoutMs: number };
  recorder: { enabled: boolean; wsUrl: string; maxAssets: number };
  kalshiRecorder: {
    enabled: boolean;
    wsUrl: string;
    maxMarkets: number;
    keyId: string | undefined;
    /** The PEM text itself, or a file holding it (read by the recorder). */
    privateKey: { pem: string } | { path: string } | undefined;
  };
  backgroundJobs: boolean;
  /** The first fold ahead of pairs' closed days this long after start (SPREAD_DAYS_AHEAD_AFTER_SECONDS), ms. */
  spreadDaysAheadAfterMs: number;
  /** The synthetic demo venues tick in this server (DEMO_LIVE, set by `npm run demo`). */
  demoLive: boolean;
  streams: {
    natsUrl: string | undefined;
    natsSubjectPrefix: string;
    subscriptions: Record<Plan, number>;
    connectionsPerKey: number;
    bufferBytes: number;
    maxPending: number;
    slowConsumerMs: number;
    tickMs: number;
  };
  /** The archive CLI's API and key. */
  archiveClient: { url: string; apiKey: string | undefined };
  /** Per-key limits shared by every instance (lib/limits). */
  limits: { leaseTtlMs: number };
  logLevel: Env["LOG_LEVEL"];
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment; throws a ConfigError naming every bad variable. */
/**
 * A venue's websocket channel under VENUE_REDIRECT_URL (offline/test mode): unless the channel's
 * own URL was set, it goes where every venue HTTP call goes, `${redirect}/${host}${path}` with the
 * scheme made ws(s), so an offline server never dials a venue.
 */
function offlineChannel(url: string, explicit: string | undefined, redirect: string | undefined): string {
  if (redirect === undefined || (explicit !== undefined && explicit.trim() !== "")) return url;
  const channel = new URL(url);
  return `${redirect.replace(/\/+$/, "").replace(/^http/, "ws")}/${channel.host}${channel.pathname}${channel.search}`;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  if ((e.GITHUB_ID === undefined) !== (e.GITHUB_SECRET === undefined)) {
    throw new ConfigError("Invalid configuration:\n  GITHUB_ID and GITHUB_SECRET must be set together");
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    embeddedPostgres: e.DATABASE_URL === undefined,
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB,
    embeddedClickhouse: e.CLICKHOUSE_URL === undefined,
    databaseUrl: e.DATABASE_URL,
    clickhouse: {
      url: e.CLICKHOUSE_URL,
      user: e.CLICKHOUSE_USER,
      password: e.CLICKHOUSE_PASSWORD,
      database: e.CLICKHOUSE_DATABASE,
      reader: e.CLICKHOUSE_READER_USER === undefined ? undefined : { user: e.CLICKHOUSE_READER_USER, password: e.CLICKHOUSE_READER_PASSWORD },
    },
    auth: {
      secret: e.NEXTAUTH_SECRET,
      url: e.NEXTAUTH_URL,
      github:
        e.GITHUB_ID !== undefined && e.GITHUB_SECRET !== undefined
          ? { id: e.GITHUB_ID, secret: e.GITHUB_SECRET }
          : undefined,
    },
    rateLimits: { free: e.RATE_LIMIT_FREE, pro: e.RATE_LIMIT_PRO, enterprise: e.RATE_LIMIT_ENTERPRISE },
    cronSecret: e.CRON_SECRET,
    catalog: { venues: e.CATALOG_VENUES, pollSeconds: e.CATALOG_POLL_SECONDS },
    venueTimeoutMs: e.VENUE_TIMEOUT_MS,
    venueRest: {
      polymarketGamma: e.POLYMARKET_GAMMA_URL.replace(/\/+$/, ""),
      polymarketClob: e.POLYMARKET_CLOB_URL.replace(/\/+$/, ""),
      kalshi: e.KALSHI_API_URL.replace(/\/+$/, ""),
    },
    venueRedirectUrl: e.VENUE_REDIRECT_URL?.replace(/\/+$/, ""),
    passthrough: { maxConcurrentPerKey: e.PASSTHROUGH_MAX_CONCURRENT, watchTimeoutMs: e.PASSTHROUGH_WATCH_TIMEOUT_MS },
    recorder: { enabled: e.RECORDER_ENABLED, wsUrl: offlineChannel(e.POLYMARKET_WS_URL, env.POLYMARKET_WS_URL, e.VENUE_REDIRECT_URL), maxAssets: e.RECORDER_MAX_ASSETS },
    kalshiRecorder: {
      enabled: e.KALSHI_RECORDER_ENABLED,
      wsUrl: offlineChannel(e.KALSHI_WS_URL, env.KALSHI_WS_URL, e.VENUE_REDIRECT_URL),
      maxMarkets: e.KALSHI_RECORDER_MAX_MARKETS,
      keyId: e.KALSHI_API_KEY_ID,
      privateKey:
        e.KALSHI_PRIVATE_KEY !== undefined
          ? { pem: e.KALSHI_PRIVATE_KEY.replace(/\\n/g, "\n") }
          : e.KALSHI_PRIVATE_KEY_PATH !== undefined
            ? { path: e.KALSHI_PRIVATE_KEY_PATH }
            : undefined,
    },
    backgroundJobs: e.BACKGROUND_JOBS,
    spreadDaysAheadAfterMs: e.SPREAD_DAYS_AHEAD_AFTER_SECONDS * 1000,
    demoLive: e.DEMO_LIVE,
    streams: {
      natsUrl: e.NATS_URL,
      natsSubjectPrefix: e.NATS_SUBJECT_PREFIX,
      subscriptions: { free: e.STREAM_SUBSCRIPTIONS_FREE, pro: e.STREAM_SUBSCRIPTIONS_PRO, enterprise: e.STREAM_SUBSCRIPTIONS_ENTERPRISE },
      connectionsPerKey: e.STREAM_CONNECTIONS_PER_KEY,
      bufferBytes: e.STREAM_BUFFER_BYTES,
      maxPending: e.STREAM_MAX_PENDING,
      slowConsumerMs: e.STREAM_SLOW_CONSUMER_MS,
      tickMs: e.STREAM_TICK_MS,
    },
    archiveClient: { url: e.BRIER_URL, apiKey: e.BRIER_API_KEY },
    limits: { leaseTtlMs: e.LIMIT_LEASE_TTL_MS },
    logLevel: e.LOG_LEVEL,
  };
}

export const config: Config = parseConfig(process.env);
