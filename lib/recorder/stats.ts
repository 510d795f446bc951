/** Counters behind the recorder section of GET /v0/status. */

const RATE_WINDOW_MS = 10_000;

export interface RecorderStatusSection {
  running: boolean;
  connections: { open: number; total: number };
  subscribedAssets: number;
  framesPerSecond: number;
  rowsPerSecond: number;
  frames: number;
  rowsWritten: number;
  rowsBuffered: number;
  duplicatesDropped: number;
  rowsDropped: number;
  ignoredEvents: Record<string, number>;
  malformedFrames: number;
  lastFrameAt: string | null;
  /** Received minus venue timestamp of the latest event, ms. */
  lagMs: number | null;
  reconnects: number;
  errors: number;
  backPressure: boolean;
}

export class RecorderStats {
  frames = 0;
  rowsWritten = 0;
  duplicatesDropped = 0;
  rowsDropped = 0;
  malformedFrames = 0;
  reconnects = 0;
  errors = 0;
  insertErrors = 0;
  backPressure = false;
  ignoredEvents: Record<string, number> = {};
  lastFrameMs: number | undefined;
  lagMs: number | undefined;
  /** (time, frames, rows written) samples for the per-second rates. */
  readonly #samples: Array<[number, number, number]> = [];

  recordFrame(receivedMs: number, latestVenueMs: number | undefined, ignored: Record<string, number>, malformed: number): void {
    this.frames += 1;
    this.lastFrameMs = receivedMs;
    if (latestVenueMs !== undefined) this.lagMs = receivedMs - latestVenueMs;
    this.malformedFrames += malformed;
    for (const [type, count] of Object.entries(ignored)) this.ignoredEvents[type] = (this.ignoredEvents[type] ?? 0) + count;
    this.#sample(receivedMs);
  }

  recordWritten(rows: number): void {
    this.rowsWritten += rows;
    this.#sample(Date.now());
  }

  #sample(now: number): void {
    const last = this.#samples[this.#samples.length - 1];
    if (last !== undefined && now - last[0] < 250) {
      last[1] = this.frames;
      last[2] = this.rowsWritten;
    } else this.#samples.push([now, this.frames, this.rowsWritten]);
    while (this.#samples.length > 2 && (this.#samples[0]?.[0] ?? now) < now - RATE_WINDOW_MS) this.#samples.shift();
  }

  rates(now = Date.now()): { framesPerSecond: number; rowsPerSecond: number } {
    const first = this.#samples.find((sample) => sample[0] >= now - RATE_WINDOW_MS);
    if (first === undefined) return { framesPerSecond: 0, rowsPerSecond: 0 };
    const seconds = Math.max(1, (now - first[0]) / 1000);
    const round = (value: number) => Math.round(value * 10) / 10;
    return {
      framesPerSecond: round((this.frames - first[1]) / seconds),
      rowsPerSecond: round((this.rowsWritten - first[2]) / seconds),
    };
  }
}

/** The counters every recorder's status shares (the rest: running, connections, assets). */
export function statusCounters(stats: RecorderStats, rowsBuffered: number): Omit<RecorderStatusSection, "running" | "connections" | "subscribedAssets"> {
  return {
    ...stats.rates(),
    frames: stats.frames,
    rowsWritten: stats.rowsWritten,
    rowsBuffered,
    duplicatesDropped: stats.duplicatesDropped,
    rowsDropped: stats.rowsDropped,
    ignoredEvents: { ...stats.ignoredEvents },
    malformedFrames: stats.malformedFrames,
    lastFrameAt: stats.lastFrameMs === undefined ? null : new Date(stats.lastFrameMs).toISOString(),
    lagMs: stats.lagMs ?? null,
    reconnects: stats.reconnects,
    errors: stats.errors,
    backPressure: stats.backPressure,
  };
}
