import { z } from "zod";
import { marketPublic } from "@/lib/catalog/shapes";

/** The watchlist's answers: every one is parsed through these before it leaves, and GET /v0/openapi.json is derived from them. */

export const watchlistResponse = z.object({
  data: z.array(marketPublic).describe("The starred markets, most recently starred first, as GET /v0/markets answers them."),
});
export type WatchlistResponse = z.output<typeof watchlistResponse>;

export const watchlistItemResponse = z.object({
  data: marketPublic.describe("The market, as GET /v0/markets/{id} answers it."),
});
export type WatchlistItemResponse = z.output<typeof watchlistItemResponse>;
