import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { InvalidParameterError } from "@/lib/errors";
import { parseQuery } from "@/lib/input";
import { isExchangeKey } from "@/lib/venues/registry";
import { SPREAD_METHOD } from "./args";
import { RESOLUTION_METHOD } from "./resolutions";
import { getStreamHub } from "./live";
import type { Transport } from "./outbox";
import { MAX_SSE_OUTCOMES, messageText } from "./protocol";

const HEARTBEAT_MS = 15_000;

const idList = (name: string, what: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} must name one or more ${what}, comma-separated`)
    .transform((value) => [...new Set(value.split(",").map((id) => id.trim()).filter((id) => id !== ""))])
    .pipe(z.array(z.string().max(200)).min(1).max(MAX_SSE_OUTCOMES, `at most ${MAX_SSE_OUTCOMES} ${what}`));

export const streamQuery = z.object({
  outcomeIds: idList("outcomeIds", "outcome ids")
    .optional()
    .describe(`Outcome ids (Polymarket CLOB token ids, Kalshi TICKER / TICKER-NO), comma-separated, at most ${MAX_SSE_OUTCOMES}: their live order books. Required unless resolutions is given.`),
  resolutions: z
    .union([z.literal("*"), idList("resolutions", "market ids")])
    .optional()
    .describe(
      `\`resolution\` events: \`*\` for every market of the venue, or market ids, comma-separated, at most ${MAX_SSE_OUTCOMES} (condition id, Kalshi ticker, the venue's market id, or an outcome id of the market).`,
    ),
  exchange: z
    .string()
    .trim()
    .toLowerCase()
    .default("polymarket")
    .refine((value) => isExchangeKey(value), "unknown exchange")
    .describe("Venue (pmxt exchange key), default polymarket."),
});
export type StreamQuery = z.infer<typeof streamQuery>;

/** Parses the query of GET /v0/stream; a 400 names the parameter (also one sent twice). */
export function parseStreamQuery(searchParams: URLSearchParams): StreamQuery {
  const query = parseQuery(streamQuery, searchParams);
  if (query.outcomeIds === undefined && query.resolutions === undefined) {
    throw new InvalidParameterError("outcomeIds", "outcomeIds is required: one or more outcome ids, comma-separated (or resolutions=* | market ids for resolution events)");
  }
  return query;
}

const encoder = new TextEncoder();

/**
 * GET /v0/stream as Server-Sent Events, for browsers: the same subscriptions and the same messages
 * as over /ws (`{event, id, method, symbol, data}` as each event's data), through the same hub,
 * plan limits and slow-consumer policy: a `watchOrderBooks` of the outcomes (id `books`) and/or a
 * `watchResolutions` of the markets or the whole venue (id `resolutions`). The stream ends when the
 * client goes away, or when its last subscription ended (refused, or closed).
 */
export async function openBookStream(principal: Principal, query: StreamQuery, signal: AbortSignal): Promise<Response> {
  const subscribe: Array<Record<string, unknown>> = [];
  if (query.outcomeIds !== undefined) subscribe.push({ id: "books", action: "subscribe", exchange: query.exchange, method: "watchOrderBooks", args: [query.outcomeIds] });
  if (query.resolutions !== undefined) {
    subscribe.push({ id: "resolutions", action: "subscribe", exchange: query.exchange, method: RESOLUTION_METHOD, args: query.resolutions === "*" ? [] : [query.resolutions] });
  }
  return openSse(principal, subscribe, query.outcomeIds === undefined ? "brier live resolutions" : "brier live order books", signal);
}

/**
 * GET /v0/pairs/{a}/{b}/spreads/stream: a pair's spread after fees as Server-Sent Events, priced at
 * every change of either live book: a `watchSpread` over /ws (docs/spreads.md, "Live"), through the
 * same hub, admission, plan limits and slow-consumer policy.
 */
export async function openSpreadStream(principal: Principal, a: string, b: string, size: number, signal: AbortSignal): Promise<Response> {
  return openSse(principal, [{ id: "spread", action: "subscribe", exchange: "brier", method: SPREAD_METHOD, args: [a, b, size] }], "brier live pair spread", signal);
}

/** One SSE response carrying the subscriptions of one session of the hub. */
async function openSse(principal: Principal, subscribe: ReadonlyArray<Record<string, unknown>>, comment: string, signal: AbortSignal): Promise<Response> {
  const hub = await getStreamHub();
  const connection = await hub.admitConnection({ accountId: principal.accountId, keyId: principal.keyId, plan: principal.plan });
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let finished = false;
  const highWaterMark = hub.limits.bufferBytes;
  const finish = () => {
    if (finished) return;
    finished = true;
    if (heartbeat !== undefined) clearInterval(heartbeat);
    try {
      controller?.close();
    } catch {
      // Already closed by the client.
    }
  };
  const transport: Transport = {
    buffered: () => (controller === undefined ? 0 : highWaterMark - (controller.desiredSize ?? 0)),
    write: (messages) => {
      if (finished || controller === undefined) return;
      let text = "";
      for (const message of messages) text += `data: ${messageText(message)}\n\n`;
      controller.enqueue(encoder.encode(text));
    },
    close: (_code, reason) => {
      if (!finished && controller !== undefined) controller.enqueue(encoder.encode(`event: close\ndata: ${JSON.stringify({ reason })}\n\n`));
      finish();
    },
  };
  const session = hub.open(connection, "sse", transport);
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        c.enqueue(encoder.encode(`: ${comment}\n\n`));
        heartbeat = setInterval(() => {
          if (!finished) c.enqueue(encoder.encode(": ping\n\n"));
        }, HEARTBEAT_MS);
        heartbeat.unref();
      },
      cancel() {
        finish();
        session.closedByTransport();
      },
    },
    { highWaterMark, size: (chunk) => chunk.byteLength },
  );
  signal.addEventListener(
    "abort",
    () => {
      finish();
      session.closedByTransport();
    },
    { once: true },
  );
  for (const message of subscribe) await session.handle(JSON.stringify(message));
  // From here the stream ends with its last subscription; it has none when every one was refused.
  session.endWhenEmpty = true;
  if (session.subscriptions.size === 0 && !session.closed) session.outbox.end(1000, "no subscription left");
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
