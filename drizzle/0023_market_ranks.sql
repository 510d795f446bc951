-- The rank keys and the listing's order indexes move from `markets` to a narrow table, so a rank move
-- rewrites a narrow row and the order indexes, not the wide row and its 14 indexes (docs/performance.md).
CREATE TABLE "market_ranks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"volume24h" double precision DEFAULT 0 NOT NULL,
	"abs_change24h" double precision DEFAULT 0 NOT NULL,
	"liquidity" double precision,
	"venue" text NOT NULL,
	"category" text NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"resolution_date" timestamp with time zone,
	"first_seen_at" timestamp with time zone NOT NULL,
	"search_vector" "tsvector" NOT NULL
);--> statement-breakpoint
INSERT INTO "market_ranks" ("id", "volume24h", "abs_change24h", "liquidity", "venue", "category", "closed", "resolution_date", "first_seen_at", "search_vector")
SELECT "id", "volume24h", "abs_change24h", "liquidity", "venue", "category", "closed", "resolution_date", "first_seen_at", "search_vector" FROM "markets";--> statement-breakpoint
DROP INDEX "markets_rank_idx";--> statement-breakpoint
DROP INDEX "markets_venue_rank_idx";--> statement-breakpoint
DROP INDEX "markets_category_rank_idx";--> statement-breakpoint
DROP INDEX "markets_category_venue_rank_idx";--> statement-breakpoint
DROP INDEX "markets_change_rank_idx";--> statement-breakpoint
DROP INDEX "markets_liquidity_rank_idx";--> statement-breakpoint
DROP INDEX "markets_resolution_rank_idx";--> statement-breakpoint
DROP INDEX "markets_newest_rank_idx";--> statement-breakpoint
ALTER TABLE "market_ranks" ADD CONSTRAINT "market_ranks_id_markets_id_fk" FOREIGN KEY ("id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_ranks_rank_idx" ON "market_ranks" USING btree ("volume24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("closed", "search_vector");--> statement-breakpoint
CREATE INDEX "market_ranks_venue_rank_idx" ON "market_ranks" USING btree ("venue","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("closed", "search_vector");--> statement-breakpoint
CREATE INDEX "market_ranks_category_rank_idx" ON "market_ranks" USING btree ("category","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("closed", "search_vector");--> statement-breakpoint
CREATE INDEX "market_ranks_category_venue_rank_idx" ON "market_ranks" USING btree ("category","venue","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_ranks_change_rank_idx" ON "market_ranks" USING btree ("abs_change24h" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "market_ranks_liquidity_rank_idx" ON "market_ranks" USING btree (coalesce("liquidity", '-Infinity'::float8) desc,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "market_ranks_resolution_rank_idx" ON "market_ranks" USING btree (coalesce("resolution_date", 'infinity'::timestamptz),"id") WHERE closed = false;--> statement-breakpoint
CREATE INDEX "market_ranks_newest_rank_idx" ON "market_ranks" USING btree ("first_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
ALTER TABLE "markets" DROP COLUMN "volume24h";--> statement-breakpoint
ALTER TABLE "markets" DROP COLUMN "abs_change24h";--> statement-breakpoint
ALTER TABLE "markets" DROP COLUMN "liquidity";--> statement-breakpoint
-- Statistics for the new table at once, so the first listings are planned on them (autovacuum would take a while).
ANALYZE "market_ranks";
