import type { z } from "zod";
import { errorResponse, rateLimitedResponse, ref, schemaOf, unauthorizedResponse, type JsonSchema, type OpenApiSectionBuilder } from "@/lib/http/openapi";
import { coverageQuery } from "./coverage";
import { incidentsQuery } from "./journal";
import { manifestQuery } from "./manifest";
import { orderBookHistoryQuery, orderBookQuery } from "./orderbooks";
import { marketPricesQuery, sparklinesQuery } from "./prices";
import { tradesQuery } from "./trades";

/** The query parameters of a strict zod object, as OpenAPI parameters (descriptions from the schema). */
export function queryParameters(schema: z.ZodObject, required: readonly string[] = []): JsonSchema[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...json } = schemaOf(field as z.ZodType);
    return { name, in: "query", required: required.includes(name), description, schema: Object.keys(json).length === 0 ? { type: "string" } : json };
  });
}

export const pathParameter = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string", maxLength: 200 } });

export const badRequest = () => errorResponse("A parameter is invalid (`invalid_parameter`, with `parameter` naming it); no query ran.");

const ok = (description: string, schema: JsonSchema) => ({ description, content: { "application/json": { schema } } });

const level = { type: "object", required: ["price", "size"], properties: { price: { type: "number" }, size: { type: "number" } } };

const recordedBook: JsonSchema = {
  type: "object",
  required: ["outcomeId", "market", "at", "timestamp", "snapshotTimestamp", "bids", "asks", "inSync", "source"],
  properties: {
    outcomeId: { type: "string", description: "The outcome (CLOB token id, = asset_id in /v0/sql)." },
    market: { type: "string", description: "Condition id (`market` in /v0/sql)." },
    at: { type: "integer", description: "The instant asked for (a grid point in history), epoch ms." },
    timestamp: { type: "integer", description: "Venue time of the last event applied, epoch ms." },
    snapshotTimestamp: { type: "integer", description: "Venue time of the `book` snapshot the rebuild started from, epoch ms." },
    bids: { type: "array", items: level, description: "Best (highest) first." },
    asks: { type: "array", items: level, description: "Best (lowest) first." },
    hash: { type: ["string", "null"], description: "The venue's hash of the last event applied." },
    tickSize: { type: ["string", "null"] },
    inSync: { type: "boolean", description: "False when a change after the snapshot disagreed with the venue's stated best prices (a lost frame): see docs/history.md." },
    source: { type: "string", enum: ["recorded"] },
  },
};

const planned = (plan: string) => errorResponse(`Below the ${plan} plan (\`forbidden\`, naming the plan).`);

/** The history endpoints in GET /v0/openapi.json (assembled in app/v0/openapi.json/route.ts). */
export const historyOpenApi: OpenApiSectionBuilder = () => ({
  description: "Order books at any instant, trades, price history for every venue, coverage, incidents and an archive manifest: docs/history.md.",
  paths: {
    "/v0/orderbooks/{outcomeId}": {
      get: {
        operationId: "getRecordedOrderBook",
        summary: "The recorded L2 book of an outcome at an instant, rebuilt from the last snapshot plus every change (Pro and Enterprise)",
        parameters: [pathParameter("outcomeId", "Outcome id (Polymarket CLOB token id)."), ...queryParameters(orderBookQuery)],
        responses: {
          "200": ok("The book.", { type: "object", required: ["data"], properties: { data: ref("RecordedOrderBook") } }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": planned("pro"),
          "404": errorResponse("Unknown outcome, a venue that is not recorded, or no book recorded at or before `at`."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/orderbooks/{outcomeId}/history": {
      get: {
        operationId: "getRecordedOrderBookHistory",
        summary: "Recorded books on a 1m/5m/1h grid, oldest first, at most 1,000 a call with a cursor (Pro and Enterprise)",
        parameters: [pathParameter("outcomeId", "Outcome id (Polymarket CLOB token id)."), ...queryParameters(orderBookHistoryQuery, ["since"])],
        responses: {
          "200": ok("A page of books; grid points before the first recorded snapshot are left out.", {
            type: "object",
            required: ["data", "meta"],
            properties: {
              data: { type: "array", items: ref("RecordedOrderBook") },
              meta: {
                type: "object",
                properties: {
                  count: { type: "integer" },
                  limit: { type: "integer" },
                  interval: { type: "string" },
                  since: { type: "integer" },
                  until: { type: "integer" },
                  nextCursor: { type: ["string", "null"], description: "Pass as `cursor` (with the same since/until/interval) for the next page; null on the last." },
                },
              },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": planned("pro"),
          "404": errorResponse("Unknown outcome or a venue that is not recorded."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/trades/{outcomeId}": {
      get: {
        operationId: "getRecordedTrades",
        summary: "Recorded trades of an outcome (Polymarket last_trade_price), newest first, with a cursor (Pro and Enterprise)",
        parameters: [pathParameter("outcomeId", "Outcome id (Polymarket CLOB token id)."), ...queryParameters(tradesQuery)],
        responses: {
          "200": ok("A page of trades.", {
            type: "object",
            required: ["data", "meta"],
            properties: {
              data: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    id: { type: "string", description: "Transaction hash." },
                    timestamp: { type: "integer", description: "Venue time, epoch ms." },
                    price: { type: "number" },
                    amount: { type: "number" },
                    side: { type: "string", enum: ["buy", "sell", "unknown"] },
                    feeRateBps: { type: ["number", "null"] },
                  },
                },
              },
              meta: { type: "object", properties: { count: { type: "integer" }, limit: { type: "integer" }, nextCursor: { type: ["string", "null"] } } },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "403": planned("pro"),
          "404": errorResponse("Unknown outcome or a venue that is not recorded."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/markets/{id}/prices": {
      get: {
        operationId: "getMarketPrices",
        summary: "Price history of any venue's market: per outcome OHLC of the catalog's price snapshots, 1h or 1d buckets (every plan)",
        parameters: [pathParameter("id", "Catalog UUID, slug, venue market id, contractAddress or an outcomeId."), ...queryParameters(marketPricesQuery)],
        responses: {
          "200": ok("Candles per outcome, oldest first; a bucket without a snapshot is absent.", {
            type: "object",
            properties: {
              data: {
                type: "object",
                properties: {
                  marketId: { type: "string" },
                  venue: { type: "string" },
                  interval: { type: "string", enum: ["1h", "1d"] },
                  since: { type: "integer" },
                  until: { type: "integer" },
                  outcomes: {
                    type: "array",
                    items: {
                      type: "object",
                      properties: {
                        outcomeId: { type: "string" },
                        label: { type: "string" },
                        candles: {
                          type: "array",
                          items: {
                            type: "object",
                            properties: {
                              time: { type: "integer", description: "Bucket start, epoch ms, UTC." },
                              open: { type: "number" },
                              high: { type: "number" },
                              low: { type: "number" },
                              close: { type: "number" },
                              snapshots: { type: "integer" },
                              volume24h: { type: ["number", "null"] },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "404": errorResponse("No market matches the reference."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/prices/sparklines": {
      get: {
        operationId: "getPriceSparklines",
        summary: "Seven days of hourly closes of each market's first outcome, for many catalog markets in one call (every plan)",
        parameters: queryParameters(sparklinesQuery, ["marketIds"]),
        responses: {
          "200": ok("One entry per market with snapshots in the last 7 days.", {
            type: "object",
            properties: {
              data: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    marketId: { type: "string" },
                    outcomeId: { type: "string" },
                    points: { type: "array", items: { type: "array", prefixItems: [{ type: "integer" }, { type: "number" }] }, description: "[epoch ms, price], oldest first." },
                  },
                },
              },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/coverage": {
      get: {
        operationId: "getCoverage",
        summary: "What the archive holds per asset: first/last event, rows by type, one condition per UTC hour (available, degraded, missing) and the gaps (every plan)",
        parameters: queryParameters(coverageQuery),
        responses: {
          "200": ok("Coverage per asset of the market (or the one outcome).", {
            type: "object",
            properties: {
              data: {
                type: "object",
                properties: {
                  market: { type: "string" },
                  since: { type: "integer" },
                  until: { type: "integer" },
                  assets: {
                    type: "array",
                    items: {
                      type: "object",
                      properties: {
                        outcomeId: { type: "string" },
                        label: { type: ["string", "null"] },
                        firstEvent: { type: ["integer", "null"] },
                        lastEvent: { type: ["integer", "null"] },
                        rowsByType: { type: "object", additionalProperties: { type: "integer" } },
                        hours: {
                          type: "array",
                          items: {
                            type: "object",
                            properties: {
                              hour: { type: "integer", description: "Hour start, epoch ms (UTC)." },
                              condition: { type: "string", enum: ["available", "degraded", "missing"] },
                              recorded: { type: "number", description: "Share of the hour the asset was recorded, 0..1." },
                              rows: { type: "integer" },
                              incidents: { type: "integer" },
                            },
                          },
                        },
                        gaps: {
                          type: "array",
                          items: {
                            type: "object",
                            properties: {
                              start: { type: "integer" },
                              end: { type: "integer" },
                              reason: { type: "string", enum: ["recorder_down", "not_subscribed", "connection_lost"] },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "404": errorResponse("Unknown outcome or market."),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/incidents": {
      get: {
        operationId: "listIncidents",
        summary: "What happened to the tick recorder (connections lost with the gap, assets added/dropped, malformed frames, lag, back-pressure, insert failures), newest first (every plan)",
        parameters: queryParameters(incidentsQuery),
        responses: {
          "200": ok("A page of incidents.", {
            type: "object",
            properties: {
              data: {
                type: "array",
                items: {
                  type: "object",
                  properties: {
                    id: { type: "string" },
                    runId: { type: "string", description: "The recorder run (process) it happened to." },
                    kind: { type: "string" },
                    startedAt: { type: "string", format: "date-time" },
                    endedAt: { type: ["string", "null"], format: "date-time" },
                    durationMs: { type: ["integer", "null"] },
                    degrading: { type: "boolean", description: "True for kinds that make an hour degraded." },
                    assets: { type: "array", items: { type: "string" }, description: "Assets touched (at most 50 listed); empty: every recorded asset." },
                    message: { type: "string" },
                    detail: { type: "object" },
                  },
                },
              },
              meta: { type: "object", properties: { count: { type: "integer" }, limit: { type: "integer" }, nextCursor: { type: ["string", "null"] } } },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
    "/v0/archive/manifest": {
      get: {
        operationId: "getArchiveManifest",
        summary: "Per UTC hour of a day: rows, assets, a SHA-256 over the hour's rows in a documented order, and the hour's condition (every plan)",
        parameters: queryParameters(manifestQuery, ["date"]),
        responses: {
          "200": ok("The day's hours (up to now).", {
            type: "object",
            properties: {
              data: {
                type: "object",
                properties: {
                  date: { type: "string" },
                  market: { type: ["string", "null"] },
                  checksum: { type: "object", description: "How the checksum is computed: algorithm, row order, line format." },
                  hours: {
                    type: "array",
                    items: {
                      type: "object",
                      properties: {
                        hour: { type: "string", format: "date-time" },
                        rows: { type: "integer" },
                        assets: { type: "integer" },
                        checksum: { type: "string" },
                        condition: { type: "string", enum: ["available", "degraded", "missing"] },
                      },
                    },
                  },
                },
              },
            },
          }),
          "400": badRequest(),
          "401": unauthorizedResponse(),
          "429": rateLimitedResponse(),
        },
      },
    },
  },
  schemas: { RecordedOrderBook: recordedBook },
});
