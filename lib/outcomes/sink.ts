import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import type { Db } from "@/lib/db";
import type { LiveBus, ResolutionMessage } from "@/lib/live/bus";
import { errorFields, log } from "@/lib/log";
import { recordResolutions } from "./store";
import { isResolutionState, type ResolutionChange, type ResolutionRecord, type ResolutionSource } from "./types";

/** A change as the live bus carries it (times as epoch ms). */
export function resolutionMessage(change: ResolutionChange): ResolutionMessage {
  return {
    venue: change.venue,
    market: change.market,
    venueMarketId: change.venueMarketId,
    outcomeIds: change.outcomeIds,
    state: change.state,
    venueState: change.venueState,
    winningOutcomeId: change.winningOutcomeId,
    settlementValue: change.settlementValue,
    closedAt: change.closedAt?.getTime() ?? null,
    venueTime: change.venueTime.getTime(),
    receivedAt: change.receivedAt.getTime(),
    source: change.source,
    resolutionSource: change.resolutionSource,
  };
}

/** The change a live-bus message carries, back from its wire form (the inverse of resolutionMessage; a state unknown to this build reads `unknown`). */
export function changeOfMessage(message: ResolutionMessage): Omit<ResolutionChange, "raw"> {
  return {
    venue: message.venue,
    market: message.market,
    venueMarketId: message.venueMarketId,
    outcomeIds: message.outcomeIds,
    state: isResolutionState(message.state) ? message.state : "unknown",
    venueState: message.venueState,
    winningOutcomeId: message.winningOutcomeId,
    settlementValue: message.settlementValue,
    closedAt: message.closedAt === null ? null : new Date(message.closedAt),
    venueTime: new Date(message.venueTime),
    receivedAt: new Date(message.receivedAt),
    source: message.source as ResolutionSource,
    resolutionSource: message.resolutionSource,
  };
}

/**
 * Where the outcome readers hand their records (REST sweeps and push alike): written one batch
 * at a time, in the order handed in (so a push and a sweep page never race on a market), and each
 * change published on the live bus as a `resolution` event (/v0/stream, /ws). A failed write is
 * logged and counted; the next sweep reads the venue again.
 */
export class ResolutionSink {
  readonly counters = { records: 0, changes: 0, failures: 0 };
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly writer: ClickHouseClient,
    private readonly bus?: LiveBus,
  ) {}

  /** Records `records` after every batch handed in before; resolves with the changes written. */
  record(records: readonly ResolutionRecord[]): Promise<ResolutionChange[]> {
    const run = this.#chain.then(async () => {
      this.counters.records += records.length;
      const changes = await recordResolutions(this.db, this.writer, records);
      this.counters.changes += changes.length;
      for (const change of changes) this.bus?.publishResolution(resolutionMessage(change));
      return changes;
    });
    this.#chain = run.catch((error: unknown) => {
      this.counters.failures += 1;
      log.error("outcome records not written", errorFields(error));
    });
    return run;
  }

  /** Resolves once every batch handed in so far is written (or failed). */
  async flushed(): Promise<void> {
    await this.#chain;
  }
}
