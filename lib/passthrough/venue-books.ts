import "server-only";
import { AuthenticationError } from "pmxt-core/dist/errors";
import { bookPrices, type BookPriceReader, type VenueBooks } from "@/lib/live/book-prices";
import { isRecordedVenue } from "@/lib/recorder/registry";
import { passthroughPool } from "./dispatch";

/** Venues' own books through the pass-through's shared instances, for book prices (lib/live/book-prices.ts). */
export const sharedVenueBooks: VenueBooks = {
  recorded: isRecordedVenue,
  fetch: (venue, outcomeId) => passthroughPool().with({ kind: "shared", venue }, (exchange) => exchange.fetchOrderBook(outcomeId)),
  needsCredentials: (error) => error instanceof AuthenticationError,
  ready: (venue) => passthroughPool().with({ kind: "shared", venue }, async () => undefined),
};

/** Book prices of markets: the recorder's live book, else the venue's through the shared instances. What the matching routes hand matching. */
export const venueBookPrices: BookPriceReader = (rows) => bookPrices(sharedVenueBooks, rows);
