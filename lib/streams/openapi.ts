import { errorResponse, rateLimitedResponse, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/http/openapi";
import { MAX_SSE_OUTCOMES } from "./protocol";

/** GET /v0/stream in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). /ws is a WebSocket: docs/streams.md. */
export const streamsOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/stream": {
      get: {
        operationId: "streamOrderBooks",
        summary: "Live order books as Server-Sent Events (the current book of each outcome first, then every update)",
        description:
          "Each event's data is one message of the /ws protocol: {event: 'subscribed'|'data'|'error', id, method, symbol, data}, data being pmxt's OrderBook {bids, asks, timestamp}. Counts against the plan's stream subscriptions (one per outcome). The WebSocket API (GET /ws, pmxt's protocol) is described in docs/streams.md.",
        parameters: [
          {
            name: "outcomeIds",
            in: "query",
            required: true,
            description: `Outcome ids (Polymarket CLOB token ids), comma-separated, at most ${MAX_SSE_OUTCOMES}.`,
            schema: { type: "string" },
          },
          { name: "exchange", in: "query", required: false, description: "Venue (pmxt exchange key), default polymarket.", schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "An event stream.", content: { "text/event-stream": { schema: { type: "string" } } } },
          "400": errorResponse("Missing or invalid outcomeIds or exchange."),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
});
