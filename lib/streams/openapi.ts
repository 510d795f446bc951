import { errorResponse, queryParameters, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type OpenApiSectionBuilder } from "@/lib/openapi";
import { streamMessage } from "./protocol";
import { streamQuery } from "./sse";

/** GET /v0/stream in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). /ws is a WebSocket: docs/streams.md. */
export const streamsOpenApi: OpenApiSectionBuilder = () => ({
  paths: {
    "/v0/stream": {
      get: {
        operationId: "streamOrderBooks",
        summary: "Live order books and market resolutions as Server-Sent Events (the current book of each outcome first, then every update; every outcome change as it is recorded)",
        description:
          "Each event's data is one message of the /ws protocol: {event: 'subscribed'|'data'|'resolution'|'error', id, method, symbol, data}. `data` events (subscription id `books`) carry pmxt's OrderBook {bids, asks, timestamp}; `resolution` events (subscription id `resolutions`, method watchResolutions) carry one change of a market's outcome as GET /v0/resolutions lists it, from whichever instance recorded it. outcomeIds, resolutions or both. Counts against the plan's stream subscriptions (one per outcome, one per market named in resolutions, one for resolutions=*). The WebSocket API (GET /ws, pmxt's protocol, also `watchResolutions`) is described in docs/streams.md.",
        parameters: queryParameters(streamQuery),
        responses: {
          "200": {
            description: "An event stream; each event's data is one StreamMessage (JSON).",
            content: { "text/event-stream": { schema: { type: "string", contentMediaType: "text/event-stream", "x-event-data": ref("StreamMessage") } } },
          },
          "400": errorResponse("Neither outcomeIds nor resolutions, or an invalid outcomeIds, resolutions or exchange."),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
  schemas: { StreamMessage: schemaOf(streamMessage) },
});
