import "server-only";
import { BookStore, replayBook, type AssetBook } from "@/lib/books/book-state";
import type { Db } from "@/lib/db";
import { AppError, InvalidParameterError } from "@/lib/errors";
import { encodeCursor } from "@/lib/input";
import { recordedOutcomeOrThrow } from "./outcomes";
import { bookHistoryPage, historyIntervals, recordedBookPublic, type BookHistoryPage, type OrderBookHistoryQuery, type OrderBookQuery, type RecordedBook } from "./shapes";
import type { TickReader } from "@/lib/ticks";
import { bookRows, bookRowsFromLastBook, firstBookAfter, lastBookAtOrBefore } from "./ticks";

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
export async function recordedBookAt(db: Db, ticks: TickReader, outcomeId: string, query: OrderBookQuery, now = Date.now()): Promise<RecordedBook> {
  const at = query.at ?? now;
  const outcome = await recordedOutcomeOrThrow(db, outcomeId);
  const rows = [];
  for await (const row of bookRowsFromLastBook(ticks, outcome, outcomeId, at)) rows.push(row);
  // The first row is the last book at or before `at`; none means no book was recorded by then.
  const snapshotTs = rows[0]?.timestampMs;
  if (snapshotTs === undefined) {
    throw new AppError("not_found", `No order book of '${outcomeId}' was recorded at or before ${new Date(at).toISOString()}.`, { resource: "order book" });
  }
  return recordedBookPublic.parse(present(replayBook(outcomeId, outcome.conditionId, rows), outcomeId, at, snapshotTs, query.depth));
}

/**
 * GET /v0/orderbooks/{outcomeId}/history: books on an interval grid, oldest first, at most 1,000
 * a call. One pass: the rows from the last snapshot at or before the first grid point to the last
 * one, replayed once through the shared book state, a view taken at each grid point. A window that
 * opens before the outcome's first recorded book starts at the first grid point at or after that
 * book, so a page is empty only when the window holds no book at all.
 */
export async function recordedBookHistory(db: Db, ticks: TickReader, outcomeId: string, query: OrderBookHistoryQuery, now = Date.now()): Promise<BookHistoryPage> {
  const step = historyIntervals[query.interval];
  const until = query.until ?? now;
  if (query.since > until) throw new InvalidParameterError("since", "since must not be after until");
  const cursor = query.cursor;
  let first = cursor?.[1] ?? Math.ceil(query.since / step) * step;
  if (cursor !== undefined && (first % step !== 0 || first < query.since || first > until)) {
    throw new InvalidParameterError("cursor", "cursor does not belong to this since/until/interval");
  }
  const meta = { count: 0, limit: query.limit, interval: query.interval, since: query.since, until, nextCursor: null as string | null };
  const outcome = await recordedOutcomeOrThrow(db, outcomeId);
  const snapshotTs = await lastBookAtOrBefore(ticks, outcome, outcomeId, first);
  let replayFrom = snapshotTs;
  if (replayFrom === undefined) {
    replayFrom = await firstBookAfter(ticks, outcome, outcomeId, first, until);
    if (replayFrom === undefined) return bookHistoryPage.parse({ data: [], meta });
    first = Math.ceil(replayFrom / step) * step;
  }
  const grid: number[] = [];
  for (let t = first; t <= until && grid.length < query.limit; t += step) grid.push(t);
  const last = grid[grid.length - 1];
  if (last === undefined) return bookHistoryPage.parse({ data: [], meta });
  const next = last + step;
  if (next <= until) meta.nextCursor = encodeCursor(["h", next]);

  const store = new BookStore();
  const data: RecordedBook[] = [];
  let snapshotAt = replayFrom;
  let index = 0;
  const emitUntil = (beforeMs: number) => {
    // Every grid point before this row's time sees the book as it is now.
    for (; index < grid.length && (grid[index] ?? 0) < beforeMs; index += 1) {
      const book = store.get(outcomeId);
      if (book?.hasSnapshot) data.push(present(book, outcomeId, grid[index] ?? 0, snapshotAt, query.depth));
    }
  };
  for await (const row of bookRows(ticks, outcome, outcomeId, replayFrom, last)) {
    emitUntil(row.timestampMs);
    store.apply(row);
    if (row.eventType === "book") snapshotAt = row.timestampMs;
  }
  emitUntil(Number.POSITIVE_INFINITY);
  meta.count = data.length;
  return bookHistoryPage.parse({ data, meta });
}
