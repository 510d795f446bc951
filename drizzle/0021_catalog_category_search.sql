-- A search with a category filter walks the category's rank order without visiting the table:
-- the index carries `closed` and `search_vector` like markets_rank_idx (drizzle/0019; docs/catalog.md, "Search").
DROP INDEX "markets_category_rank_idx";--> statement-breakpoint
CREATE INDEX "markets_category_rank_idx" ON "markets" USING btree ("category","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("closed", "search_vector");
