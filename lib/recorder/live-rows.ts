import type { AssetBook, BookStore } from "@/lib/books/book-state";
import type { LivePublisher } from "@/lib/live/publisher";
import type { TickRow } from "./rows";

/**
 * A frame's rows through the one BookStore; each book the frame touched is published once, after
 * the whole frame (a frame's changes are one venue update), and each trade as it comes.
 */
export function applyLiveRows(books: BookStore, live: LivePublisher | undefined, rows: readonly TickRow[]): void {
  let touched: Set<AssetBook> | undefined;
  for (const row of rows) {
    if (row.eventType === "last_trade_price") {
      live?.publishTrade(row);
      continue;
    }
    const book = books.apply(row);
    if (book !== undefined && live !== undefined) (touched ??= new Set()).add(book);
  }
  if (touched !== undefined) for (const book of touched) live?.publishBook(book);
}
