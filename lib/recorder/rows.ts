import type { BookData } from "@/lib/books/book-state";

/*
 * The rows both recorders write (lib/recorder/polymarket/normalize.ts and
 * lib/recorder/kalshi/normalize.ts make them from their venue's frames), and their insert body.
 */

export type TickEventType = "book" | "price_change" | "last_trade_price";

export interface TickRow {
  /** Venue event time, epoch ms. */
  timestampMs: number;
  /** Local receive time, epoch ms. */
  receivedMs: number;
  market: string;
  eventType: TickEventType;
  /** Normalized event JSON. */
  data: string;
  /** `data` as an object, when the normalizer built the text from one (the live book state reads it without a parse). */
  parsed?: BookData;
}

export interface NormalizedFrame {
  rows: TickRow[];
  /** Event types seen but not stored (tick_size_change, best_bid_ask, …), by type. */
  ignored: Record<string, number>;
  /** Objects in the frame that could not be normalized (missing fields, wrong types). */
  malformed: number;
  /** Largest venue timestamp in the frame (ms), for lag; undefined when none. */
  latestVenueMs: number | undefined;
  /** The frame's lifecycle messages (outcomes: Polymarket `market_resolved`, Kalshi `market_lifecycle_v2`), as received, for the outcome reader. */
  lifecycle?: Array<Record<string, unknown>>;
}

/** Where a recorder hands its frames' lifecycle messages (`NormalizedFrame.lifecycle`): the venue's outcome reader. */
export type LifecycleSink = (messages: Array<Record<string, unknown>>, receivedMs: number) => void;

/** The columns of an insert body, in order. */
export const insertColumns = ["timestamp", "timestamp_received", "market", "event_type", "data"] as const;

/**
 * Rows as the engine's TabSeparated input (columns `insertColumns`): DateTime64 as decimal epoch
 * seconds (time-zone free), strings TSV-escaped. The JSON in `data` travels as is (no second
 * JSON encoding), which is also the cheapest text format for the engine to parse.
 */
export function toTsvBody(rows: readonly TickRow[]): string {
  let body = "";
  for (const row of rows) {
    body += `${msToSeconds(row.timestampMs)}\t${msToSeconds(row.receivedMs)}\t${tsv(row.market)}\t${row.eventType}\t${tsv(row.data)}\n`;
  }
  return body;
}

const TSV_SPECIAL = /[\\\t\n\r\0]/;
const TSV_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\0": "\\0" };
function tsv(value: string): string {
  return TSV_SPECIAL.test(value) ? value.replace(/[\\\t\n\r\0]/g, (c) => TSV_ESCAPES[c] ?? c) : value;
}

function msToSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const fraction = ms - seconds * 1000;
  return `${seconds}.${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}`;
}
