-- The four other list orders' partial indexes carry the search vector (INCLUDE), and the two keyed by a
-- `coalesce` the column it reads too (PostgreSQL answers an expression index from the index alone only when
-- it carries every column the statement reads): a search in sort=newest, liquidity, change24h or
-- resolutionDate then walks its order's index index-only, as a search in the default order walks
-- market_ranks_rank_idx, instead of visiting a market_ranks heap row per entry (query=senate at 1M: ~4,700
-- random heap pages read, 106-208 ms cold, or 5,400 buffers for newest, against ~140 index pages and no heap
-- fetch). The write cost (each insert and rank move writes these four entries ~150 bytes wider) is in
-- docs/performance.md, "Search at 1M, fourth pass".
DROP INDEX "market_ranks_change_rank_idx";--> statement-breakpoint
CREATE INDEX "market_ranks_change_rank_idx" ON "market_ranks" USING btree ("abs_change24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("search_vector") WHERE closed = false;--> statement-breakpoint
DROP INDEX "market_ranks_liquidity_rank_idx";--> statement-breakpoint
CREATE INDEX "market_ranks_liquidity_rank_idx" ON "market_ranks" USING btree (coalesce("liquidity", '-Infinity'::float8) desc,"id" DESC NULLS LAST) INCLUDE ("liquidity", "search_vector") WHERE closed = false;--> statement-breakpoint
DROP INDEX "market_ranks_newest_rank_idx";--> statement-breakpoint
CREATE INDEX "market_ranks_newest_rank_idx" ON "market_ranks" USING btree ("first_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("search_vector") WHERE closed = false;--> statement-breakpoint
DROP INDEX "market_ranks_resolution_rank_idx";--> statement-breakpoint
CREATE INDEX "market_ranks_resolution_rank_idx" ON "market_ranks" USING btree (coalesce("resolution_date", 'infinity'::timestamptz),"id") INCLUDE ("resolution_date", "search_vector") WHERE closed = false;
