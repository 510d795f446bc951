DROP INDEX "events_search_text_trgm_idx";--> statement-breakpoint
DROP INDEX "markets_search_text_trgm_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, title), 'A') || setweight(to_tsvector('simple'::regconfig, translate(coalesce(slug, ''), '-_./', '    ')), 'B')) STORED;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, title), 'A') || setweight(to_tsvector('simple'::regconfig, translate(coalesce(slug, ''), '-_./', '    ')), 'B')) STORED;--> statement-breakpoint
CREATE INDEX "events_search_vector_idx" ON "events" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "markets_search_vector_idx" ON "markets" USING gin ("search_vector");--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "search_text";--> statement-breakpoint
ALTER TABLE "markets" DROP COLUMN "search_text";--> statement-breakpoint
DROP INDEX "events_rank_idx";--> statement-breakpoint
CREATE INDEX "events_rank_idx" ON "events" USING btree ("volume24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("closed", "search_vector");--> statement-breakpoint
DROP INDEX "markets_rank_idx";--> statement-breakpoint
CREATE INDEX "markets_rank_idx" ON "markets" USING btree ("volume24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("closed", "search_vector");
