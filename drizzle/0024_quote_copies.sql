-- Copies of what a re-poll compares against (markets.content_hash, market_ranks' rank keys) on the
-- quote row it updates anyway, so a poll reads one row per market instead of probing three tables
-- (docs/performance.md). Not filled here: a row without copies takes the full path on its next poll,
-- which writes them (lib/catalog/store.ts marketQuoteStatement), so this migration rewrites nothing.
ALTER TABLE "market_quotes" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "market_quotes" ADD COLUMN "rank_volume24h" double precision;--> statement-breakpoint
ALTER TABLE "market_quotes" ADD COLUMN "rank_abs_change24h" double precision;--> statement-breakpoint
ALTER TABLE "market_quotes" ADD COLUMN "rank_liquidity" double precision;