/**
 * Market-channel frames -> rows of `polymarket_orderbook_rust` (the frame shapes: docs/ticks.md).
 *
 * - `book`: one row; `data` = {asset_id, bids, asks, hash, tick_size} with each side as
 *   `[[price, size], …]` in the venue's wire order: bids ascending, asks descending, so the best
 *   level of each side is the LAST entry.
 * - `price_change`: one row per `price_changes[]` entry, `data` = {asset_id, price, size, side,
 *   best_bid, best_ask, hash}; the legacy `changes[]` format gives one row per change with the
 *   frame's asset_id and hash and no best_bid/best_ask.
 * - `last_trade_price`: one row, `data` = {asset_id, price, size, side, fee_rate_bps, transaction_hash}.
 * - Any other event type is counted, not stored. Prices and sizes stay the venue's decimal strings.
 */

import type { NormalizedFrame, TickEventType, TickRow } from "../rows";

type Json = Record<string, unknown>;

class MalformedEvent extends Error {}

function str(object: Json, key: string): string {
  const value = object[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new MalformedEvent(`field ${key} is missing`);
}

function optionalStr(object: Json, key: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  return str(object, key);
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function timestampMs(object: Json): number {
  const raw = str(object, "timestamp");
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new MalformedEvent("bad timestamp");
  return ms;
}

/**
 * A string as a JSON literal, byte for byte what JSON.stringify writes: the common case (no quote,
 * backslash, control character or surrogate) is just quoted, anything else goes through JSON.stringify.
 */
const PLAIN_JSON_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
function jsonString(value: string): string {
  return PLAIN_JSON_STRING.test(value) ? `"${value}"` : JSON.stringify(value);
}

/** A book side as `[["price","size"],…]` JSON, in the order received. */
function levels(value: unknown): string {
  if (!Array.isArray(value)) throw new MalformedEvent("book side is not an array");
  let out = "[";
  for (let i = 0; i < value.length; i += 1) {
    const level: unknown = value[i];
    if (!isObject(level)) throw new MalformedEvent("book level is not an object");
    out += `${i === 0 ? "" : ","}[${jsonString(str(level, "price"))},${jsonString(str(level, "size"))}]`;
  }
  return `${out}]`;
}

/*
 * `data` is written field by field in a fixed key order (the same text JSON.stringify of the
 * object would give): one JSON.parse per frame and no intermediate objects per row.
 */
function eventRows(event: Json, receivedMs: number): TickRow[] {
  const eventType = str(event, "event_type");
  const market = str(event, "market");
  const ts = timestampMs(event);
  const row = (type: TickEventType, data: string): TickRow => ({ timestampMs: ts, receivedMs, market, eventType: type, data });
  const field = (object: Json, key: string) => jsonString(str(object, key));
  const optionalField = (object: Json, key: string) => jsonString(optionalStr(object, key) ?? "");
  switch (eventType) {
    case "book":
      return [
        row(
          "book",
          `{"asset_id":${field(event, "asset_id")},"bids":${levels(event.bids ?? event.buys)},"asks":${levels(event.asks ?? event.sells)}` +
            `,"hash":${optionalField(event, "hash")},"tick_size":${optionalField(event, "tick_size")}}`,
        ),
      ];
    case "price_change": {
      if (Array.isArray(event.price_changes)) {
        return event.price_changes.map((change: unknown) => {
          if (!isObject(change)) throw new MalformedEvent("price change is not an object");
          return row(
            "price_change",
            `{"asset_id":${field(change, "asset_id")},"price":${field(change, "price")},"size":${field(change, "size")}` +
              `,"side":${field(change, "side")},"best_bid":${optionalField(change, "best_bid")}` +
              `,"best_ask":${optionalField(change, "best_ask")},"hash":${optionalField(change, "hash")}}`,
          );
        });
      }
      if (Array.isArray(event.changes)) {
        const assetId = field(event, "asset_id");
        const hash = optionalField(event, "hash");
        return event.changes.map((change: unknown) => {
          if (!isObject(change)) throw new MalformedEvent("price change is not an object");
          return row(
            "price_change",
            `{"asset_id":${assetId},"price":${field(change, "price")},"size":${field(change, "size")},"side":${field(change, "side")},"hash":${hash}}`,
          );
        });
      }
      throw new MalformedEvent("price_change without price_changes or changes");
    }
    case "last_trade_price":
      return [
        row(
          "last_trade_price",
          `{"asset_id":${field(event, "asset_id")},"price":${field(event, "price")},"size":${field(event, "size")}` +
            `,"side":${field(event, "side")},"fee_rate_bps":${optionalField(event, "fee_rate_bps")}` +
            `,"transaction_hash":${optionalField(event, "transaction_hash")}}`,
        ),
      ];
    default:
      return [];
  }
}

/**
 * Normalizes one raw text frame. Never throws: a frame that is not JSON, or an event missing its
 * fields, is counted in `malformed`; the other events of the frame are kept.
 */
export function normalizeFrame(text: string, receivedMs: number): NormalizedFrame {
  const result: NormalizedFrame = { rows: [], ignored: {}, malformed: 0, latestVenueMs: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    result.malformed = 1;
    return result;
  }
  const events = Array.isArray(parsed) ? parsed : [parsed];
  for (const event of events) {
    if (!isObject(event)) {
      result.malformed += 1;
      continue;
    }
    if (event.event_type === "market_resolved") {
      (result.lifecycle ??= []).push(event);
      continue;
    }
    try {
      const rows = eventRows(event, receivedMs);
      const type = str(event, "event_type");
      if (rows.length === 0 && type !== "price_change") {
        result.ignored[type] = (result.ignored[type] ?? 0) + 1;
        continue;
      }
      for (const row of rows) result.rows.push(row);
      const ts = rows[0]?.timestampMs;
      if (ts !== undefined && (result.latestVenueMs === undefined || ts > result.latestVenueMs)) result.latestVenueMs = ts;
    } catch (error) {
      if (!(error instanceof MalformedEvent)) throw error;
      result.malformed += 1;
    }
  }
  return result;
}
