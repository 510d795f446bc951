import { z } from "zod";
import { resolutionSources, resolutionStates } from "./types";

/* The public shapes of outcomes (zod only: the browser's code reads them through the catalog's shapes). */

export const resolutionPublic = z.object({
  state: z.enum(resolutionStates).describe("Where the market stands, as its venue stated it: open, closed, proposed, disputed, determined, settled, voided, unknown."),
  winningOutcomeId: z.string().nullable().describe("The outcome the venue named the winner (an outcomeId of this market); null when none is stated (not yet, voided, or a 50-50 split)."),
  settlementValue: z.number().nullable().describe("Payout per share of the market's first outcome, dollars 0..1 (1 or 0 for a winner, 0.5 for a 50-50); null until stated."),
  closedAt: z.iso.datetime().nullable().describe("When trading closed, as the venue states it."),
  determinedAt: z.iso.datetime().nullable().describe("When the result was determined."),
  settledAt: z.iso.datetime().nullable().describe("When it settled."),
  venueState: z.string().nullable().describe("The venue's own word for the state (Kalshi `finalized`, `amended`; Polymarket's UMA status)."),
  resolutionSource: z.string().nullable().describe("The source the venue names for the result."),
  learnedBy: z.enum(resolutionSources).describe("How Brier learned it: rest, historical (Kalshi's historical endpoint), push (a channel event), catalog (pmxt-core's status only), synthetic (the offline demo)."),
  synthetic: z.boolean().describe("True for the offline demo's invented resolutions, never a venue's fact."),
  updatedAt: z.iso.datetime().nullable().describe("When Brier received the last change; null when learned from the catalog only."),
});

export type ResolutionPublic = z.infer<typeof resolutionPublic>;

/** One change as `GET /v0/resolutions` and the stream's `resolution` events show it. */
export const resolutionChangePublic = z.object({
  venue: z.string().describe("The venue (exchange key)."),
  market: z.string().describe("The books key: Polymarket condition id, Kalshi ticker (= column `market` in /v0/sql)."),
  venueMarketId: z.string().describe("The venue's own market id (the catalog's venueMarketId)."),
  outcomeIds: z.array(z.string()).describe("The market's outcome ids, in the venue's order."),
  state: z.enum(resolutionStates),
  venueState: z.string().nullable(),
  winningOutcomeId: z.string().nullable(),
  settlementValue: z.number().nullable(),
  closedAt: z.iso.datetime().nullable(),
  venueTime: z.iso.datetime().describe("When the change happened, as the venue states it."),
  receivedAt: z.iso.datetime().describe("When Brier received it (the order of the list)."),
  learnedBy: z.enum(resolutionSources),
  resolutionSource: z.string().nullable(),
  synthetic: z.boolean(),
});

export type ResolutionChangePublic = z.infer<typeof resolutionChangePublic>;
