import "server-only";
import { Readable } from "node:stream";
import type { ClickHouseClient } from "@clickhouse/client";
import { errorFields, log } from "@/lib/log";
import { tickTable } from "@/lib/ticks/ddl/0001_polymarket_orderbook";
import { RecentRows, rowKey } from "./dedup";
import { insertColumns, toTsvBody, type TickRow } from "./rows";
import type { RecorderStats } from "./stats";

export interface TickWriterOptions {
  /** Flush when this many rows are buffered. */
  batchRows: number;
  /** Flush at least this often while rows are buffered. */
  flushIntervalMs: number;
  /** Above this many buffered rows the writer asks its producers to pause (back-pressure). */
  highWaterRows: number;
  /** Hard cap on buffered rows: beyond it the oldest rows are dropped and counted. */
  maxBufferedRows: number;
  /** Remembered row identities for dedup across reconnects and restarts. */
  dedupCapacity: number;
  /** How far back (by receive time) the dedup memory is seeded from the table on start. */
  dedupSeedMinutes: number;
  /** The published table written (one per venue: lib/ticks/published.ts). */
  table: string;
}

/** An insert attempt's outcome, or rows dropped because the buffer was full. */
export type InsertEvent = { kind: "written" | "dropped"; rows: number } | { kind: "failed"; rows: number; error: unknown };

/**
 * The recorder's loss bound on `kill -9` (docs/ticks.md, "What a crash loses"): a received row is
 * handed to the engine at most this long after it arrived (sooner when a batch fills), so a hard
 * kill loses at most the last 500 ms of frames plus an insert in flight; SIGTERM flushes all.
 * Two small inserts a second at most: the MergeTree merges keep up.
 */
export const MAX_UNFLUSHED_MS = 500;

export const defaultWriterOptions: TickWriterOptions = {
  batchRows: 50_000,
  flushIntervalMs: MAX_UNFLUSHED_MS,
  highWaterRows: 100_000,
  maxBufferedRows: 250_000,
  dedupCapacity: 500_000,
  dedupSeedMinutes: 30,
  table: tickTable,
};

/**
 * Batched, deduplicated inserts into the tick table: bounded by size and time, one insert in
 * flight, failed batches retried, bounded memory with a pause/resume signal for the producers.
 */
export class TickWriter {
  readonly options: TickWriterOptions;
  readonly #recent: RecentRows;
  #buffer: TickRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #paused = false;
  #closed = false;
  #listeners = new Set<(paused: boolean) => void>();
  #insertListeners = new Set<(event: InsertEvent) => void>();

  constructor(
    private readonly client: ClickHouseClient,
    private readonly stats: RecorderStats,
    options: Partial<TickWriterOptions> = {},
  ) {
    this.options = { ...defaultWriterOptions, ...options };
    this.#recent = new RecentRows(this.options.dedupCapacity);
  }

  get buffered(): number {
    return this.#buffer.length;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Called with true when producers should stop reading, false when they may resume. */
  onBackPressure(listener: (paused: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called after every insert attempt and when the buffer overflows (the recorder's journal). */
  onInsert(listener: (event: InsertEvent) => void): () => void {
    this.#insertListeners.add(listener);
    return () => this.#insertListeners.delete(listener);
  }

  /** Loads the identities of recently stored rows so a restart does not write them again. */
  async seedFromStore(): Promise<number> {
    const result = await this.client.query({
      query: `SELECT market, toUnixTimestamp64Milli(timestamp) AS ts, event_type, data
        FROM ${this.options.table}
        WHERE timestamp_received >= now64(3) - toIntervalMinute({minutes:UInt32})
        ORDER BY timestamp_received DESC
        LIMIT {limit:UInt32}`,
      query_params: { minutes: this.options.dedupSeedMinutes, limit: this.options.dedupCapacity },
      format: "JSONCompactEachRow",
    });
    const rows = await result.json<[string, number | string, string, string]>();
    for (let i = rows.length - 1; i >= 0; i -= 1) {
      const row = rows[i];
      if (row !== undefined) this.#recent.admitKey(rowKey(row[0], Number(row[1]), row[2], row[3]));
    }
    return rows.length;
  }

  /** Buffers rows (duplicates of recent rows are dropped); flushes when the batch is full. */
  push(rows: readonly TickRow[]): void {
    if (this.#closed) return;
    for (const row of rows) {
      if (!this.#recent.admit(row)) {
        this.stats.duplicatesDropped += 1;
        continue;
      }
      this.#buffer.push(row);
    }
    if (this.#buffer.length > this.options.maxBufferedRows) {
      const excess = this.#buffer.length - this.options.maxBufferedRows;
      this.#buffer.splice(0, excess);
      this.stats.rowsDropped += excess;
      this.stats.errors += 1;
      for (const listener of this.#insertListeners) listener({ kind: "dropped", rows: excess });
      log.error("tick buffer full: dropped the oldest rows", { dropped: excess });
    }
    this.#updatePressure();
    // An insert in flight drains the whole buffer before it settles: one flush at a time.
    if (this.#flushing !== undefined) return;
    if (this.#buffer.length >= this.options.batchRows) void this.flush();
    else if (this.#buffer.length > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.flush();
      }, this.options.flushIntervalMs);
      this.#timer.unref();
    }
  }

  /** Writes everything buffered; resolves when the buffer is empty or an insert failed. */
  async flush(): Promise<void> {
    while (this.#flushing !== undefined) await this.#flushing;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#buffer.length === 0) return;
    this.#flushing = this.#writeAll().finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  /** Final flush (SIGTERM, stop); later pushes are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  async #writeAll(): Promise<void> {
    while (this.#buffer.length > 0) {
      const batch = this.#buffer.slice(0, this.options.batchRows);
      try {
        await insertTickRows(this.client, batch, this.options.table);
      } catch (error) {
        this.stats.errors += 1;
        this.stats.insertErrors += 1;
        log.error("tick insert failed; the batch stays buffered", { rows: batch.length, ...errorFields(error) });
        for (const listener of this.#insertListeners) listener({ kind: "failed", rows: batch.length, error });
        if (!this.#closed && this.#timer === undefined) {
          this.#timer = setTimeout(() => {
            this.#timer = undefined;
            void this.flush();
          }, this.options.flushIntervalMs);
          this.#timer.unref();
        }
        return;
      }
      this.#buffer.splice(0, batch.length);
      this.stats.recordWritten(batch.length);
      for (const listener of this.#insertListeners) listener({ kind: "written", rows: batch.length });
      this.#updatePressure();
    }
  }

  #updatePressure(): void {
    const shouldPause = this.#buffer.length >= this.options.highWaterRows;
    const shouldResume = this.#buffer.length <= this.options.highWaterRows / 2;
    if (!this.#paused && shouldPause) this.#setPaused(true);
    else if (this.#paused && shouldResume) this.#setPaused(false);
  }

  #setPaused(paused: boolean): void {
    this.#paused = paused;
    this.stats.backPressure = paused;
    for (const listener of this.#listeners) listener(paused);
  }
}

/** One insert of rows into a tick table, as a TabSeparated body (lib/recorder/rows.ts). */
export async function insertTickRows(client: ClickHouseClient, rows: readonly TickRow[], table: string = tickTable): Promise<void> {
  if (rows.length === 0) return;
  await client.insert({
    table,
    columns: [...insertColumns],
    values: Readable.from([toTsvBody(rows)], { objectMode: false }),
    format: "TabSeparated",
  });
}
