DROP INDEX "events_title_trgm_idx";--> statement-breakpoint
DROP INDEX "events_slug_trgm_idx";--> statement-breakpoint
DROP INDEX "markets_title_trgm_idx";--> statement-breakpoint
DROP INDEX "markets_slug_trgm_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "search_text" text GENERATED ALWAYS AS (title || chr(31) || coalesce(slug, '')) STORED;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "search_text" text GENERATED ALWAYS AS (title || chr(31) || coalesce(slug, '')) STORED;--> statement-breakpoint
CREATE INDEX "events_search_text_trgm_idx" ON "events" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "markets_search_text_trgm_idx" ON "markets" USING gin ("search_text" gin_trgm_ops);