import type { ClickHouseClient } from "@clickhouse/client";
import { BookStore } from "@/lib/books/book-state";
import type { RecorderJournal } from "@/lib/recorder/journal";
import { applyLiveRows } from "@/lib/recorder/live-rows";
import { RecorderStats, statusCounters, type RecorderStatusSection } from "@/lib/recorder/stats";
import { TickWriter } from "@/lib/recorder/writer";
import { VenueXChannel } from "./channel";
import { normalizeVenueXFrame } from "./normalize";

export interface VenueXRecorderOptions {
  writer: ClickHouseClient;
  table: string;
  wsUrl: string;
  /** The venue's market ids to record (each market's outcomes come with it). */
  markets: readonly string[];
  journal: RecorderJournal;
}

/** Venue X's recorder, from the recorders' parts: its channel, its normalizer, the shared writer, book state, stats and journal. */
export class VenueXRecorder {
  readonly stats = new RecorderStats();
  readonly books = new BookStore();
  readonly writer: TickWriter;
  readonly #options: VenueXRecorderOptions;
  #channel: VenueXChannel | undefined;

  constructor(options: VenueXRecorderOptions) {
    this.#options = options;
    this.writer = new TickWriter(options.writer, this.stats, { table: options.table, flushIntervalMs: 50 });
    options.journal.attachWriter(this.writer);
  }

  async start(): Promise<void> {
    await this.writer.seedFromStore();
    await this.#options.journal.start(() => ({ ...this.status() }));
    const channel = new VenueXChannel(
      {
        url: this.#options.wsUrl,
        onFrame: (text, receivedMs) => this.#onFrame(text, receivedMs),
        onOpen: (reconnect) => this.#options.journal.connectionOpened(0, [...this.books.assets()], reconnect),
        onLost: () => this.#options.journal.connectionLost(0, [...this.books.assets()]),
        onError: () => {
          this.stats.errors += 1;
        },
        minBackoffMs: 20,
      },
      this.#options.markets,
    );
    this.#channel = channel;
    channel.connect();
  }

  #onFrame(text: string, receivedMs: number): void {
    const frame = normalizeVenueXFrame(text, receivedMs);
    this.stats.recordFrame(receivedMs, frame.latestVenueMs, frame.ignored, frame.malformed);
    this.#options.journal.frame(frame.malformed, this.stats.lagMs);
    const fresh = frame.rows.map((row) => row.parsed?.asset_id).filter((id): id is string => typeof id === "string" && this.books.get(id) === undefined);
    if (fresh.length > 0) this.#options.journal.assetsChanged([...new Set(fresh)], []);
    applyLiveRows(this.books, undefined, frame.rows);
    for (const row of frame.rows) row.parsed = undefined;
    if (frame.rows.length > 0) this.writer.push(frame.rows);
  }

  async stop(): Promise<void> {
    await this.#channel?.close();
    this.#channel = undefined;
    await this.writer.close();
    await this.#options.journal.stop();
  }

  status(): RecorderStatusSection {
    const open = this.#channel?.open === true ? 1 : 0;
    return { running: this.#channel !== undefined, connections: { open, total: this.#channel === undefined ? 0 : 1 }, subscribedAssets: this.books.size, ...statusCounters(this.stats, this.writer.buffered) };
  }
}
