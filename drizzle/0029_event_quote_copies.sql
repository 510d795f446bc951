-- Copies of what a re-poll compares an event against (events.content_hash and its rank keys) on the
-- quote row it reads anyway, as drizzle/0024 did for markets: a poll reads one row per event instead
-- of probing event_quotes and events (docs/performance.md). Not filled here: a row without copies
-- takes the full path on its next poll, which writes them (lib/catalog/store.ts quoteStatement).
ALTER TABLE "event_quotes" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "event_quotes" ADD COLUMN "rank_volume24h" double precision;--> statement-breakpoint
ALTER TABLE "event_quotes" ADD COLUMN "rank_abs_change24h" double precision;--> statement-breakpoint
ALTER TABLE "event_quotes" ADD COLUMN "rank_liquidity" double precision;