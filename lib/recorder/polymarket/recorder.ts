import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { BookStore } from "@/lib/books/book-state";
import { errorFields, log } from "@/lib/log";
import type { LivePublisher } from "@/lib/live/publisher";
import type { RecorderJournal } from "../journal";
import type { LifecycleSink } from "../rows";
import { MAX_ASSETS_PER_CONNECTION, MarketChannelConnection } from "./channel";
import { normalizeFrame } from "./normalize";
import { applyLiveRows } from "../live-rows";
import { RecorderStats, statusCounters, type RecorderStatusSection } from "../stats";
import { TickWriter, type TickWriterOptions } from "../writer";

/** The outcome tokens to record, best first; called again every `refreshMs` to follow the catalog. */
export type AssetSource = () => Promise<string[]>;

export interface RecorderOptions {
  writer: ClickHouseClient;
  wsUrl: string;
  assets: AssetSource;
  maxAssets: number;
  assetsPerConnection?: number;
  refreshMs?: number;
  pingIntervalMs?: number;
  minBackoffMs?: number;
  writerOptions?: Partial<TickWriterOptions>;
  /** Incidents and heartbeat in PostgreSQL (coverage, /v0/incidents, /v0/status). */
  journal?: RecorderJournal;
  /** The live path (/ws, /v0/stream): every touched book and every trade is published to it. */
  live?: LivePublisher;
  /** Where `market_resolved` events go (the outcome reader, lib/recorder/polymarket/outcomes.ts). */
  onLifecycle?: LifecycleSink;
}

/**
 * The tick recorder: market-channel connections (at most 500 assets each) for the top assets of
 * the catalog -> normalized rows -> batched, deduplicated inserts.
 */
export class Recorder {
  readonly stats = new RecorderStats();
  readonly writer: TickWriter;
  /** The live L2 book of every recorded asset, fed every row in order. */
  readonly books = new BookStore();
  readonly #options: RecorderOptions;
  readonly #connections: MarketChannelConnection[] = [];
  #refresh: NodeJS.Timeout | undefined;
  #running = false;

  constructor(options: RecorderOptions) {
    this.#options = options;
    this.writer = new TickWriter(options.writer, this.stats, options.writerOptions);
    this.writer.onBackPressure((paused) => {
      for (const connection of this.#connections) connection.setPaused(paused);
    });
    options.journal?.attachWriter(this.writer);
    options.live?.attach({ isRecording: (assetId) => this.isRecording(assetId), book: (assetId) => this.books.get(assetId) });
  }

  /** True while `assetId` is subscribed on one of the market-channel connections. */
  isRecording(assetId: string): boolean {
    return this.#running && this.#connections.some((connection) => connection.assets.has(assetId));
  }

  get connections(): readonly MarketChannelConnection[] {
    return this.#connections;
  }

  get subscribedAssets(): number {
    return this.#connections.reduce((total, connection) => total + connection.assets.size, 0);
  }

  /** Seeds dedup from the table, subscribes, and follows the asset source. */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    const seeded = await this.writer.seedFromStore();
    await this.#options.journal?.start(() => ({ ...this.status() }));
    await this.syncAssets();
    log.info("recorder started", { seededRows: seeded, assets: this.subscribedAssets, connections: this.#connections.length });
    const refreshMs = this.#options.refreshMs ?? 60_000;
    this.#refresh = setInterval(() => {
      this.syncAssets().catch((error: unknown) => {
        this.stats.errors += 1;
        log.error("recorder asset refresh failed", errorFields(error));
      });
    }, refreshMs);
    this.#refresh.unref();
  }

  /** Brings the subscriptions in line with the asset source: unsubscribe the dropped, fill connections with the new. */
  async syncAssets(): Promise<void> {
    const wanted = [...new Set(await this.#options.assets())].slice(0, this.#options.maxAssets);
    if (!this.#running) return;
    const wantedSet = new Set(wanted);
    const before = new Set(this.#connections.flatMap((connection) => [...connection.assets]));
    const perConnection = Math.min(this.#options.assetsPerConnection ?? MAX_ASSETS_PER_CONNECTION, MAX_ASSETS_PER_CONNECTION);
    const current = new Set<string>();
    for (const connection of this.#connections) {
      const removed = [...connection.assets].filter((asset) => !wantedSet.has(asset));
      connection.update([], removed);
      this.#forget(removed);
      for (const asset of connection.assets) current.add(asset);
    }
    const pending = wanted.filter((asset) => !current.has(asset));
    for (const connection of this.#connections) {
      const room = perConnection - connection.assets.size;
      if (room > 0 && pending.length > 0) connection.update(pending.splice(0, room), []);
    }
    while (pending.length > 0) {
      const index = this.#connections.length;
      const connection = new MarketChannelConnection(
        {
          url: this.#options.wsUrl,
          onFrame: (text, receivedMs) => this.#onFrame(text, receivedMs),
          onReconnect: () => {
            this.stats.reconnects += 1;
          },
          onOpen: (reconnect) => this.#options.journal?.connectionOpened(index, [...connection.assets], reconnect),
          onLost: () => this.#options.journal?.connectionLost(index, [...connection.assets]),
          onError: () => {
            this.stats.errors += 1;
          },
          ...(this.#options.pingIntervalMs !== undefined ? { pingIntervalMs: this.#options.pingIntervalMs } : {}),
          ...(this.#options.minBackoffMs !== undefined ? { minBackoffMs: this.#options.minBackoffMs } : {}),
        },
        pending.splice(0, perConnection),
      );
      this.#connections.push(connection);
      connection.setPaused(this.writer.paused);
      connection.connect();
    }
    this.#options.journal?.assetsChanged(
      wanted.filter((asset) => !before.has(asset)),
      [...before].filter((asset) => !wantedSet.has(asset)),
    );
  }

  /** Closes the connections, then flushes every buffered row (SIGTERM). */
  async stop(): Promise<void> {
    this.#running = false;
    if (this.#refresh !== undefined) clearInterval(this.#refresh);
    await Promise.all(this.#connections.map((connection) => connection.close()));
    for (const connection of this.#connections) this.#forget(connection.assets);
    this.#connections.length = 0;
    this.#options.live?.detach();
    await this.writer.close();
    await this.#options.journal?.stop();
    log.info("recorder stopped", { rowsWritten: this.stats.rowsWritten });
  }

  status(): RecorderStatusSection {
    return {
      running: this.#running,
      connections: { open: this.#connections.filter((c) => c.open).length, total: this.#connections.length },
      subscribedAssets: this.subscribedAssets,
      ...statusCounters(this.stats, this.writer.buffered),
    };
  }

  #onFrame(text: string, receivedMs: number): void {
    const frame = normalizeFrame(text, receivedMs);
    this.stats.recordFrame(receivedMs, frame.latestVenueMs, frame.ignored, frame.malformed);
    this.#options.journal?.frame(frame.malformed, this.stats.lagMs);
    if (frame.malformed > 0) {
      this.stats.errors += 1;
      log.warn("malformed market-channel frame", { malformed: frame.malformed, sample: text.slice(0, 200) });
    }
    if (frame.lifecycle !== undefined) this.#options.onLifecycle?.(frame.lifecycle, receivedMs);
    if (frame.rows.length > 0) this.writer.push(frame.rows);
    applyLiveRows(this.books, this.#options.live, frame.rows);
  }

  /** Assets no longer recorded: their books would go stale, so they leave the BookStore. */
  #forget(assetIds: Iterable<string>): void {
    const dropped = [...assetIds];
    for (const assetId of dropped) this.books.drop(assetId);
    this.#options.live?.dropped(dropped);
  }
}
