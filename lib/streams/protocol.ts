import { z } from "zod";
import { parseUntrustedJson, TOO_DEEP_MESSAGE } from "@/lib/json";
import { resolutionChangePublic } from "@/lib/outcomes/shapes";
import type { SharedBody } from "./encode";

/**
 * The WebSocket protocol of pmxt-core's sidecar (`dist/server/ws-handler.js`), as pmxtjs's
 * `SidecarWsClient` speaks it:
 *
 * client -> server  {id, action: "subscribe"|"unsubscribe", exchange, method, args, credentials?}
 * server -> client  {event: "subscribed"|"data"|"error", id, method?, symbol?, data?, error?: {code, message}}
 *
 * Brier adds `firehose` (args: optional venue list), which pmxtjs's `firehose()` reads as an order
 * book carrying `_source` (venue) and `_symbol` (outcome id).
 */

/** Outcomes one GET /v0/stream request may follow. */
export const MAX_SSE_OUTCOMES = 20;

/** Largest client message read; anything longer is refused without parsing. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

export const clientMessage = z.object({
  id: z.union([z.string().min(1).max(200), z.number().finite()]),
  action: z.enum(["subscribe", "unsubscribe"]),
  exchange: z
    .string()
    .min(1)
    .max(64)
    .transform((value) => value.toLowerCase()),
  method: z.string().min(1).max(64),
  args: z.array(z.unknown()).max(16).default([]),
  credentials: z.record(z.string(), z.unknown()).nullish(),
});
export type ClientMessage = z.infer<typeof clientMessage>;
export type RequestId = ClientMessage["id"];

/** Error codes of `error` events: pmxt's own codes for venue/method problems, plus the protocol's. */
export type StreamErrorCode =
  | "INVALID_MESSAGE"
  | "VALIDATION_ERROR"
  | "NOT_FOUND"
  | "NOT_SUPPORTED"
  | "BAD_REQUEST"
  | "ALREADY_SUBSCRIBED"
  | "NOT_SUBSCRIBED"
  | "SUBSCRIPTION_LIMIT"
  | (string & {});

export interface StreamError {
  code: StreamErrorCode;
  message: string;
}

/** pmxt's Trade as watchTrades returns it (an array per update). */
export interface TradeData {
  id: string;
  timestamp: number;
  price: number;
  amount: number;
  side: "buy" | "sell" | "unknown";
}

/** A client message that failed validation, as one line naming the problem. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Parses one text frame; returns the message or the error event's text. */
export function parseClientMessage(text: string): { ok: true; message: ClientMessage } | { ok: false; id: RequestId | undefined; message: string } {
  if (text.length > MAX_CLIENT_MESSAGE_BYTES) return { ok: false, id: undefined, message: `Message exceeds ${MAX_CLIENT_MESSAGE_BYTES} bytes.` };
  const json = parseUntrustedJson(text);
  // pmxt's sidecar answers "Invalid JSON", word for word, and pmxt's own server test reads it.
  if (!json.ok) return { ok: false, id: undefined, message: json.reason === "depth" ? TOO_DEEP_MESSAGE : "Invalid JSON" };
  const raw = json.value;
  const parsed = clientMessage.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const rawId = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as { id?: unknown }).id : undefined;
  const id = typeof rawId === "string" || (typeof rawId === "number" && Number.isFinite(rawId)) ? rawId : undefined;
  return { ok: false, id, message: `Invalid message: ${describeIssues(parsed.error)}.` };
}

const requestId = z.union([z.string(), z.number()]).describe("The request id of the subscription the event belongs to.");
const bookLevel = z.object({ price: z.number(), size: z.number() });

/** Server -> client messages: the answers of /ws and, one per event, of GET /v0/stream. */
export const subscribedEvent = z.object({
  event: z.literal("subscribed"),
  id: requestId,
  method: z.string().optional(),
});
export const dataEvent = z.object({
  event: z.literal("data"),
  id: requestId,
  method: z.string(),
  symbol: z.string().describe("The outcome id (for firehose: `_symbol` in the book)."),
  data: z
    .union([
      z.object({ bids: z.array(bookLevel).describe("Best (highest) first."), asks: z.array(bookLevel).describe("Best (lowest) first."), timestamp: z.number() }),
      z.array(z.object({ id: z.string(), timestamp: z.number(), price: z.number(), amount: z.number(), side: z.enum(["buy", "sell", "unknown"]) })),
    ])
    .describe("pmxt's OrderBook (watchOrderBook(s), firehose) or a list of pmxt Trades (watchTrades)."),
});
export const errorEvent = z.object({
  event: z.literal("error"),
  id: requestId.optional(),
  error: z.object({ code: z.string(), message: z.string() }),
});
export const resolutionEvent = z.object({
  event: z.literal("resolution"),
  id: requestId,
  method: z.literal("watchResolutions"),
  symbol: z.string().describe("The market's books key (Polymarket condition id, Kalshi ticker)."),
  seq: z.number().int().describe("The subscription's own sequence: one per change it covers (changes are never merged)."),
  data: resolutionChangePublic.describe("The change, as GET /v0/resolutions lists it."),
});
export const streamMessage = z.discriminatedUnion("event", [subscribedEvent, dataEvent, resolutionEvent, errorEvent]);

/** The text of an `error` event, parsed through its shape. */
export function errorFrame(id: RequestId | undefined, error: StreamError): string {
  return JSON.stringify(errorEvent.parse({ event: "error", id, error: { code: error.code, message: error.message } }));
}

/** The text of a `subscribed` event (also the acknowledgement of an unsubscribe, as pmxt does), parsed through its shape. */
export function subscribedFrame(id: RequestId, method?: string): string {
  return JSON.stringify(subscribedEvent.parse(method === undefined ? { event: "subscribed", id } : { event: "subscribed", id, method }));
}

/**
 * One message to a client: a whole text, or a data event whose bulk (`body`) is shared by every
 * subscriber of the same update; only `head` (request id, method, symbol, sequence) is theirs.
 */
export type OutMessage = string | { head: string; body: SharedBody };

/** The text of an outgoing message (SSE, tests). */
export function messageText(message: OutMessage): string {
  return typeof message === "string" ? message : message.head + message.body.text;
}

/**
 * A `data` event: pmxt's `{event, id, method, symbol, data}` plus `seq`, the subscription's own
 * sequence. It grows by one per update the subscription covers; a client that sees it jump by
 * more knows that many updates were merged into this one (its connection fell behind) or missed.
 * pmxtjs reads `event`, `id`, `symbol`, `data` and `error` only, so the extra field is invisible to it.
 */
export function dataMessage(idJson: string, methodJson: string, symbolJson: string, seq: number, body: SharedBody): OutMessage {
  return { head: `{"event":"data","id":${idJson},"method":${methodJson},"symbol":${symbolJson},"seq":${seq},"data":`, body };
}
