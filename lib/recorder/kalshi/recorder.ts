import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { BookStore } from "@/lib/books/book-state";
import { errorFields, log } from "@/lib/log";
import type { LivePublisher } from "@/lib/live/publisher";
import { kalshiTable } from "@/lib/ticks/ddl/0004_kalshi_orderbook";
import type { RecorderJournal } from "../journal";
import type { LifecycleSink } from "../rows";
import { applyLiveRows } from "../live-rows";
import { RecorderStats, statusCounters, type RecorderStatusSection } from "../stats";
import { TickWriter, type TickWriterOptions } from "../writer";
import { KalshiChannelConnection, type KalshiCredentials } from "./channel";
import { KalshiNormalizer, NO_SUFFIX } from "./normalize";

/** The Kalshi market tickers to record, best first; called again every `refreshMs` to follow the catalog. */
export type TickerSource = () => Promise<string[]>;

export interface KalshiRecorderOptions {
  writer: ClickHouseClient;
  wsUrl: string;
  credentials: KalshiCredentials;
  tickers: TickerSource;
  maxMarkets: number;
  refreshMs?: number;
  minBackoffMs?: number;
  writerOptions?: Partial<TickWriterOptions>;
  journal?: RecorderJournal;
  /** The live path (/ws, /v0/stream) under venue `kalshi`. */
  live?: LivePublisher;
  /** Where `market_lifecycle_v2` messages go (the outcome reader, lib/recorder/kalshi/outcomes.ts). */
  onLifecycle?: LifecycleSink;
}

export interface KalshiRecorderStatus extends RecorderStatusSection {
  subscribedMarkets: number;
  /** Times a skipped sequence number forced a resubscription (fresh snapshots). */
  sequenceGaps: number;
  /** The venue's last `error` message, if any. */
  lastVenueError: string | null;
}

/**
 * The Kalshi recorder: one authenticated channel connection for the catalog's top Kalshi markets
 * -> `kalshi_orderbook` rows (lib/recorder/kalshi/normalize.ts) -> the same batched, deduplicated
 * writer as Polymarket's, the same shared book state and the same live publisher.
 */
export class KalshiRecorder {
  readonly stats = new RecorderStats();
  readonly writer: TickWriter;
  readonly books = new BookStore();
  readonly #options: KalshiRecorderOptions;
  #connection: KalshiChannelConnection | undefined;
  #normalizer = new KalshiNormalizer();
  #refresh: NodeJS.Timeout | undefined;
  #running = false;
  #gaps = 0;
  #lastVenueError: string | null = null;

  constructor(options: KalshiRecorderOptions) {
    this.#options = options;
    this.writer = new TickWriter(options.writer, this.stats, { ...options.writerOptions, table: kalshiTable });
    this.writer.onBackPressure((paused) => this.#connection?.setPaused(paused));
    options.journal?.attachWriter(this.writer);
    options.live?.attach({ isRecording: (assetId) => this.isRecording(assetId), book: (assetId) => this.books.get(assetId) });
  }

  /** True while the market of `assetId` (a ticker, or its `-NO` outcome) is subscribed. */
  isRecording(assetId: string): boolean {
    const tickers = this.#connection?.tickers;
    if (!this.#running || tickers === undefined) return false;
    return tickers.has(assetId) || (assetId.endsWith(NO_SUFFIX) && tickers.has(assetId.slice(0, -NO_SUFFIX.length)));
  }

  get connection(): KalshiChannelConnection | undefined {
    return this.#connection;
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    const seeded = await this.writer.seedFromStore();
    await this.#options.journal?.start(() => ({ ...this.status() }));
    await this.syncMarkets();
    log.info("kalshi recorder started", { seededRows: seeded, markets: this.#connection?.tickers.size ?? 0 });
    this.#refresh = setInterval(() => {
      this.syncMarkets().catch((error: unknown) => {
        this.stats.errors += 1;
        log.error("kalshi recorder market refresh failed", errorFields(error));
      });
    }, this.#options.refreshMs ?? 60_000);
    this.#refresh.unref();
  }

  /** Brings the subscription in line with the ticker source. */
  async syncMarkets(): Promise<void> {
    const wanted = [...new Set(await this.#options.tickers())].slice(0, this.#options.maxMarkets);
    if (!this.#running) return;
    const connection = this.#connection;
    if (connection === undefined) {
      if (wanted.length === 0) return;
      this.#connection = this.#connect(wanted);
      this.#options.journal?.assetsChanged(wanted.flatMap(outcomesOf), []);
      return;
    }
    const wantedSet = new Set(wanted);
    const removed = [...connection.tickers].filter((ticker) => !wantedSet.has(ticker));
    const added = wanted.filter((ticker) => !connection.tickers.has(ticker));
    if (added.length === 0 && removed.length === 0) return;
    connection.update(added, removed);
    this.#normalizer.forget(removed);
    this.#forget(removed.flatMap(outcomesOf));
    this.#options.journal?.assetsChanged(added.flatMap(outcomesOf), removed.flatMap(outcomesOf));
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#refresh !== undefined) clearInterval(this.#refresh);
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.close();
    if (connection !== undefined) this.#forget([...connection.tickers].flatMap(outcomesOf));
    this.#options.live?.detach();
    await this.writer.close();
    await this.#options.journal?.stop();
    log.info("kalshi recorder stopped", { rowsWritten: this.stats.rowsWritten });
  }

  status(): KalshiRecorderStatus {
    const connection = this.#connection;
    const markets = connection?.tickers.size ?? 0;
    return {
      running: this.#running,
      connections: { open: connection?.open === true ? 1 : 0, total: connection === undefined ? 0 : 1 },
      subscribedAssets: markets * 2,
      subscribedMarkets: markets,
      ...statusCounters(this.stats, this.writer.buffered),
      sequenceGaps: this.#gaps,
      lastVenueError: this.#lastVenueError,
    };
  }

  /** Frames of the connection, normalized in arrival order (the test and the bench call it directly). */
  onFrame(text: string, receivedMs: number): void {
    const frame = this.#normalizer.normalize(text, receivedMs);
    this.stats.recordFrame(receivedMs, frame.latestVenueMs, frame.ignored, frame.malformed);
    this.#options.journal?.frame(frame.malformed, this.stats.lagMs);
    for (const { channel, sid } of frame.subscribed) this.#connection?.acknowledged(channel, sid);
    for (const message of frame.errors) {
      this.#lastVenueError = message;
      this.stats.errors += 1;
      log.warn("kalshi channel error message", { message: message.slice(0, 200) });
    }
    if (frame.malformed > 0) {
      this.stats.errors += 1;
      log.warn("malformed kalshi frame", { malformed: frame.malformed, sample: text.slice(0, 200) });
    }
    if (frame.gap) {
      // A lost change: every book of the subscription is unknown until fresh snapshots arrive.
      this.#gaps += 1;
      log.warn("kalshi sequence gap: resubscribing");
      this.#connection?.terminate();
      return;
    }
    if (frame.lifecycle !== undefined) this.#options.onLifecycle?.(frame.lifecycle, receivedMs);
    applyLiveRows(this.books, this.#options.live, frame.rows);
    // The parsed copies served the live books; the writer keeps only the text.
    for (const row of frame.rows) row.parsed = undefined;
    if (frame.rows.length > 0) this.writer.push(frame.rows);
  }

  #connect(tickers: readonly string[]): KalshiChannelConnection {
    const connection = new KalshiChannelConnection(
      {
        url: this.#options.wsUrl,
        credentials: this.#options.credentials,
        onFrame: (text, receivedMs) => this.onFrame(text, receivedMs),
        onOpen: (reconnect) => {
          if (reconnect) this.stats.reconnects += 1;
          // A new socket starts from the snapshots it receives.
          this.#normalizer = new KalshiNormalizer();
          this.#options.journal?.connectionOpened(0, [...connection.tickers].flatMap(outcomesOf), reconnect);
        },
        onLost: () => this.#options.journal?.connectionLost(0, [...connection.tickers].flatMap(outcomesOf)),
        onError: () => {
          this.stats.errors += 1;
        },
        ...(this.#options.minBackoffMs !== undefined ? { minBackoffMs: this.#options.minBackoffMs } : {}),
      },
      tickers,
    );
    connection.setPaused(this.writer.paused);
    connection.connect();
    return connection;
  }

  #forget(assetIds: readonly string[]): void {
    for (const assetId of assetIds) this.books.drop(assetId);
    this.#options.live?.dropped(assetIds);
  }
}

/** A market's two outcome ids (the catalog's): the ticker (YES) and ticker-NO. */
function outcomesOf(ticker: string): string[] {
  return [ticker, `${ticker}${NO_SUFFIX}`];
}
