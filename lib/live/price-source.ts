/** Where a market's two book prices came from, or why there are none (lib/live/book-prices.ts). */
export const priceSources = ["recorder", "venue", "venue_timeout", "venue_error", "venue_needs_credentials", "no_outcome"] as const;
export type PriceSource = (typeof priceSources)[number];
