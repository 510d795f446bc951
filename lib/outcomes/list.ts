import "server-only";
import { z } from "zod";
import { cursorParam, encodeCursor } from "@/lib/input";
import { getTickStores } from "@/lib/ticks";
import { toResolutionChangePublic } from "./public";
import { resolutionChangePublic, type ResolutionChangePublic } from "./shapes";
import { resolutionChanges, type ResolutionChangePosition } from "./store";
import { resolutionStates } from "./types";

/** GET /v0/resolutions: every change, in the order Brier learned them. */
export const resolutionsQuery = z
  .object({
    venue: z
      .string()
      .regex(/^[a-z0-9_-]{1,40}$/, "a venue key (lower-case letters, digits, _ or -)")
      .optional()
      .describe("Only this venue's changes (polymarket, kalshi, mock for the demo)."),
    state: z.enum(resolutionStates).optional().describe("Only changes to this state."),
    since: z.iso.datetime({ offset: true }).optional().describe("Changes received at or after this instant (ISO 8601)."),
    until: z.iso.datetime({ offset: true }).optional().describe("Changes received before this instant (ISO 8601)."),
    limit: z.coerce.number().int().min(1).max(1000).default(100).describe("Changes per page (1..1000, default 100)."),
    cursor: cursorParam(z.tuple([z.number().int(), z.string(), z.string(), z.number().int(), z.string()]))
      .optional()
      .describe("The nextCursor of the previous page."),
  })
  .refine((q) => q.since === undefined || q.until === undefined || Date.parse(q.since) < Date.parse(q.until), { message: "since must be before until", path: ["until"] });

export type ResolutionsQuery = z.output<typeof resolutionsQuery>;

export const resolutionsResponse = z.object({
  data: z.array(resolutionChangePublic),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last."),
});

/** One page of changes; the last change's position is the next cursor when the page is full. */
export async function listResolutions(query: ResolutionsQuery): Promise<{ data: ResolutionChangePublic[]; nextCursor: string | null }> {
  const { queries } = await getTickStores();
  const changes = await resolutionChanges(queries, {
    ...(query.venue !== undefined ? { venue: query.venue } : {}),
    ...(query.state !== undefined ? { state: query.state } : {}),
    ...(query.since !== undefined ? { since: new Date(query.since) } : {}),
    ...(query.until !== undefined ? { until: new Date(query.until) } : {}),
    ...(query.cursor !== undefined ? { after: query.cursor as ResolutionChangePosition } : {}),
    limit: query.limit + 1,
  });
  const shown = changes.slice(0, query.limit);
  const last = shown.at(-1);
  const nextCursor =
    changes.length > query.limit && last !== undefined
      ? encodeCursor([last.receivedAt.getTime(), last.venue, last.market, last.venueTime.getTime(), last.state])
      : null;
  return { data: shown.map(toResolutionChangePublic), nextCursor };
}
