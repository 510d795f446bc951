import type { BookMessage, TradeMessage } from "@/lib/live/bus";

function levelsJson(levels: readonly [number, number][], limit: number): string {
  let out = "[";
  const count = Math.min(levels.length, limit);
  for (let i = 0; i < count; i += 1) {
    const level = levels[i];
    if (level === undefined) break;
    out += `${i === 0 ? "" : ","}{"price":${level[0]},"size":${level[1]}}`;
  }
  return `${out}]`;
}

/**
 * The bulk of a data message, serialized once and shared by every subscriber that receives it:
 * the `data` payload and the envelope's closing brace. Its bytes are encoded once too, the first
 * time a WebSocket writes it; every socket then writes the same buffer.
 */
export class SharedBody {
  readonly text: string;
  #bytes: Buffer | undefined;

  constructor(dataJson: string) {
    this.text = `${dataJson}}`;
  }

  get bytes(): Buffer {
    return (this.#bytes ??= Buffer.from(this.text, "utf8"));
  }
}

/**
 * One book update serialized once, in pmxt's OrderBook shape, and shared by every subscriber that
 * receives it (per depth limit, and with the firehose's `_source`/`_symbol`).
 */
export class EncodedBook {
  readonly message: BookMessage;
  readonly symbolJson: string;
  #full: SharedBody | undefined;
  #firehose: SharedBody | undefined;
  #byLimit: Map<number, SharedBody> | undefined;

  constructor(message: BookMessage) {
    this.message = message;
    this.symbolJson = JSON.stringify(message.assetId);
  }

  /** `{bids, asks, timestamp}`, at most `limit` levels a side. */
  body(limit?: number): SharedBody {
    if (limit === undefined || limit >= Math.max(this.message.bids.length, this.message.asks.length)) {
      return (this.#full ??= new SharedBody(this.#encode(Number.POSITIVE_INFINITY, "")));
    }
    this.#byLimit ??= new Map();
    let body = this.#byLimit.get(limit);
    if (body === undefined) {
      body = new SharedBody(this.#encode(limit, ""));
      this.#byLimit.set(limit, body);
    }
    return body;
  }

  /** The firehose's payload: the book with `_source` (venue) and `_symbol` (outcome id). */
  firehoseBody(): SharedBody {
    return (this.#firehose ??= new SharedBody(
      this.#encode(Number.POSITIVE_INFINITY, `,"_source":${JSON.stringify(this.message.venue)},"_symbol":${this.symbolJson}`),
    ));
  }

  #encode(limit: number, extra: string): string {
    const m = this.message;
    return `{"bids":${levelsJson(m.bids, limit)},"asks":${levelsJson(m.asks, limit)},"timestamp":${m.timestamp}${extra}}`;
  }
}

/** A trade in pmxt's watchTrades shape: an array of trades per update. */
export function tradeData(message: TradeMessage): string {
  return JSON.stringify([{ id: message.id, timestamp: message.timestamp, price: message.price, amount: message.amount, side: message.side }]);
}
