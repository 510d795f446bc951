import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { parseQuery } from "@/lib/input";
import { isExchangeKey } from "@/lib/venues/registry";
import { SPREAD_METHOD } from "./args";
import { getStreamHub } from "./live";
import type { Transport } from "./outbox";
import { MAX_SSE_OUTCOMES, messageText } from "./protocol";

const HEARTBEAT_MS = 15_000;

export const streamQuery = z.object({
  outcomeIds: z
    .string({ error: "outcomeIds is required: one or more outcome ids, comma-separated" })
    .trim()
    .min(1, "outcomeIds is required: one or more outcome ids, comma-separated")
    .transform((value) => [...new Set(value.split(",").map((id) => id.trim()).filter((id) => id !== ""))])
    .pipe(z.array(z.string().max(200)).min(1).max(MAX_SSE_OUTCOMES, `at most ${MAX_SSE_OUTCOMES} outcome ids`))
    .describe(`Outcome ids (Polymarket CLOB token ids), comma-separated, at most ${MAX_SSE_OUTCOMES}.`),
  exchange: z
    .string()
    .trim()
    .toLowerCase()
    .default("polymarket")
    .refine((value) => isExchangeKey(value), "unknown exchange")
    .describe("Venue (pmxt exchange key), default polymarket."),
});

/** Parses the query of GET /v0/stream; a 400 names the parameter (also one sent twice). */
export function parseStreamQuery(searchParams: URLSearchParams): z.infer<typeof streamQuery> {
  return parseQuery(streamQuery, searchParams);
}

const encoder = new TextEncoder();

/**
 * GET /v0/stream as Server-Sent Events, for browsers: the same subscription and the same messages
 * as a `watchOrderBooks` over /ws (`{event, id, method, symbol, data}` as each event's data), through
 * the same hub, plan limits and slow-consumer policy. The stream ends when the client goes away.
 */
export async function openBookStream(principal: Principal, query: z.infer<typeof streamQuery>, signal: AbortSignal): Promise<Response> {
  return openSse(principal, { id: "books", action: "subscribe", exchange: query.exchange, method: "watchOrderBooks", args: [query.outcomeIds] }, "brier live order books", signal);
}

/**
 * GET /v0/pairs/{a}/{b}/spreads/stream: a pair's spread after fees as Server-Sent Events, priced at
 * every change of either live book: a `watchSpread` over /ws (docs/spreads.md, "Live"), through the
 * same hub, admission, plan limits and slow-consumer policy.
 */
export async function openSpreadStream(principal: Principal, a: string, b: string, size: number, signal: AbortSignal): Promise<Response> {
  return openSse(principal, { id: "spread", action: "subscribe", exchange: "brier", method: SPREAD_METHOD, args: [a, b, size] }, "brier live pair spread", signal);
}

/** One SSE response carrying one subscription of a session of the hub. */
async function openSse(principal: Principal, subscribe: Record<string, unknown>, comment: string, signal: AbortSignal): Promise<Response> {
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
  session.endWhenEmpty = true;
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
  await session.handle(JSON.stringify(subscribe));
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
