import { errorResponse, queryParameters, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { streamMessage } from "./protocol";
import { streamQuery } from "./sse";

/** GET /v0/stream in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). /ws is a WebSocket: docs/streams.md. */
export const streamsOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/stream": {
      get: {
        operationId: "streamOrderBooks",
        summary: "Live order books as Server-Sent Events (the current book of each outcome first, then every update)",
        description:
          "Each event's data is one message of the /ws protocol: {event: 'subscribed'|'data'|'error', id, method, symbol, data}, data being pmxt's OrderBook {bids, asks, timestamp}. Counts against the plan's stream subscriptions (one per outcome). The WebSocket API (GET /ws, pmxt's protocol) is described in docs/streams.md.",
        parameters: queryParameters(streamQuery, ["outcomeIds"]),
        responses: {
          "200": {
            description: "An event stream; each event's data is one StreamMessage (JSON).",
            content: { "text/event-stream": { schema: { type: "string", contentMediaType: "text/event-stream", "x-event-data": ref("StreamMessage") } } },
          },
          "400": errorResponse("Missing or invalid outcomeIds or exchange."),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
  schemas: { StreamMessage: schemaOf(streamMessage) },
});
