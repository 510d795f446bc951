import "server-only";
import { z } from "zod";
import { BookStore, replayBook, type AssetBook, type BookLevel } from "@/lib/books/book-state";
import type { Db } from "@/lib/db";
import { AppError, InvalidParameterError } from "@/lib/errors";
import { recordedOutcomeOrThrow } from "./outcomes";
import { boundedInt, decodeCursor, encodeCursor, instant, outcomeIdParam, parsePathParam, parseQuery } from "./params";
import { bookRows, historyClient, lastBookAtOrBefore } from "./ticks";

export const HISTORY_MAX_LIMIT = 1000;
export const HISTORY_DEFAULT_LIMIT = 100;
export const MAX_DEPTH = 1000;
export const HISTORY_DEFAULT_DEPTH = 50;

export const historyIntervals = { "1m": 60_000, "5m": 300_000, "1h": 3_600_000 } as const;

export const orderBookQuery = z
  .object({
    at: instant.optional().describe("The instant (ISO 8601 with zone, or epoch ms); default now. Venue event time, UTC."),
    depth: boundedInt(MAX_DEPTH, MAX_DEPTH).describe(`Levels per side, best first (1–${MAX_DEPTH}, default all up to ${MAX_DEPTH}).`),
  })
  .strict();

export const orderBookHistoryQuery = z
  .object({
    since: instant.describe("First instant of the grid (rounded up to the interval), ISO 8601 or epoch ms. Required."),
    until: instant.optional().describe("Last instant of the grid (inclusive); default now."),
    interval: z.enum(["1m", "5m", "1h"]).optional().transform((value) => value ?? "1m").describe("Grid step: 1m (default), 5m or 1h."),
    limit: boundedInt(HISTORY_MAX_LIMIT, HISTORY_DEFAULT_LIMIT).describe(`Snapshots per call (1–${HISTORY_MAX_LIMIT}, default ${HISTORY_DEFAULT_LIMIT}).`),
    depth: boundedInt(MAX_DEPTH, HISTORY_DEFAULT_DEPTH).describe(`Levels per side per snapshot (1–${MAX_DEPTH}, default ${HISTORY_DEFAULT_DEPTH}).`),
    cursor: z.string().optional().describe("nextCursor of the previous page (same since/until/interval)."),
  })
  .strict();

export interface RecordedBook {
  outcomeId: string;
  /** Condition id (the tick table's `market`). */
  market: string;
  /** The instant asked for, epoch ms. */
  at: number;
  /** Venue time of the last event applied, epoch ms. */
  timestamp: number;
  /** Venue time of the `book` snapshot the rebuild started from, epoch ms. */
  snapshotTimestamp: number;
  bids: BookLevel[];
  asks: BookLevel[];
  hash: string | null;
  tickSize: string | null;
  /** False when a change after the snapshot disagreed with the venue's stated best prices (a lost frame). */
  inSync: boolean;
  source: "recorded";
}

function present(book: AssetBook, outcomeId: string, at: number, snapshotTimestamp: number, depth: number): RecordedBook {
  const view = book.view(depth);
  return {
    outcomeId,
    market: view.market,
    at,
    timestamp: view.timestamp,
    snapshotTimestamp,
    bids: view.bids,
    asks: view.asks,
    hash: view.hash,
    tickSize: view.tickSize,
    inSync: view.inSync,
    source: "recorded",
  };
}

/**
 * GET /v0/orderbooks/{outcomeId}?at=: the recorded L2 book at an instant, rebuilt by the shared
 * book state from the last `book` at or before `at` plus every change after it.
 */
export async function recordedBookAt(db: Db, rawOutcomeId: unknown, searchParams: URLSearchParams, now = Date.now()): Promise<RecordedBook> {
  const outcomeId = parsePathParam("outcomeId", outcomeIdParam, rawOutcomeId);
  const query = parseQuery(orderBookQuery, searchParams);
  const at = query.at ?? now;
  const outcome = await recordedOutcomeOrThrow(db, outcomeId);
  const client = await historyClient();
  const snapshotTs = await lastBookAtOrBefore(client, outcome.conditionId, outcomeId, at);
  if (snapshotTs === undefined) {
    throw new AppError("not_found", `No order book of '${outcomeId}' was recorded at or before ${new Date(at).toISOString()}.`, { resource: "order book" });
  }
  const rows = [];
  for await (const row of bookRows(client, outcome.conditionId, outcomeId, snapshotTs, at)) rows.push(row);
  return present(replayBook(outcomeId, outcome.conditionId, rows), outcomeId, at, snapshotTs, query.depth);
}

export interface BookHistoryPage {
  data: RecordedBook[];
  meta: { count: number; limit: number; interval: string; since: number; until: number; nextCursor: string | null };
}

const historyCursor = z.tuple([z.literal("h"), z.number().int().positive()]);

/**
 * GET /v0/orderbooks/{outcomeId}/history: books on an interval grid, oldest first, at most 1,000
 * a call. One pass: the rows from the last snapshot at or before the first grid point to the last
 * one, replayed once through the shared book state, a view taken at each grid point. Grid points
 * before the first recorded snapshot are skipped (there is no book to show).
 */
export async function recordedBookHistory(db: Db, rawOutcomeId: unknown, searchParams: URLSearchParams, now = Date.now()): Promise<BookHistoryPage> {
  const outcomeId = parsePathParam("outcomeId", outcomeIdParam, rawOutcomeId);
  const query = parseQuery(orderBookHistoryQuery, searchParams);
  const step = historyIntervals[query.interval];
  const until = query.until ?? now;
  if (query.since > until) throw new InvalidParameterError("since", "since must not be after until");
  const cursor = decodeCursor(query.cursor, historyCursor);
  const first = cursor?.[1] ?? Math.ceil(query.since / step) * step;
  if (cursor !== undefined && (first % step !== 0 || first < query.since || first > until)) {
    throw new InvalidParameterError("cursor", "cursor does not belong to this since/until/interval");
  }
  const grid: number[] = [];
  for (let t = first; t <= until && grid.length < query.limit; t += step) grid.push(t);
  const meta = { count: 0, limit: query.limit, interval: query.interval, since: query.since, until, nextCursor: null as string | null };
  const last = grid[grid.length - 1];
  if (last === undefined) return { data: [], meta };
  const next = last + step;
  if (next <= until) meta.nextCursor = encodeCursor(["h", next]);

  const outcome = await recordedOutcomeOrThrow(db, outcomeId);
  const client = await historyClient();
  const snapshotTs = await lastBookAtOrBefore(client, outcome.conditionId, outcomeId, first);
  const store = new BookStore();
  const data: RecordedBook[] = [];
  let snapshotAt = snapshotTs ?? 0;
  let index = 0;
  const emitUntil = (beforeMs: number) => {
    // Every grid point before this row's time sees the book as it is now.
    for (; index < grid.length && (grid[index] ?? 0) < beforeMs; index += 1) {
      const book = store.get(outcomeId);
      if (book?.hasSnapshot) data.push(present(book, outcomeId, grid[index] ?? 0, snapshotAt, query.depth));
    }
  };
  for await (const row of bookRows(client, outcome.conditionId, outcomeId, snapshotTs ?? first, last)) {
    emitUntil(row.timestampMs);
    store.apply(row);
    if (row.eventType === "book") snapshotAt = row.timestampMs;
  }
  emitUntil(Number.POSITIVE_INFINITY);
  meta.count = data.length;
  return { data, meta };
}
