ALTER TABLE "events" ADD COLUMN "abs_change24h" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "liquidity" double precision;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "abs_change24h" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "events_change_rank_idx" ON "events" USING btree ("abs_change24h" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "events_liquidity_rank_idx" ON "events" USING btree (coalesce("liquidity", '-Infinity'::float8) desc,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "events_resolution_rank_idx" ON "events" USING btree (coalesce("resolution_date", 'infinity'::timestamptz),"id") WHERE closed = false;--> statement-breakpoint
CREATE INDEX "events_newest_rank_idx" ON "events" USING btree ("first_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "markets_change_rank_idx" ON "markets" USING btree ("abs_change24h" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "markets_liquidity_rank_idx" ON "markets" USING btree (coalesce("liquidity", '-Infinity'::float8) desc,"id" DESC NULLS LAST) WHERE closed = false;--> statement-breakpoint
CREATE INDEX "markets_resolution_rank_idx" ON "markets" USING btree (coalesce("resolution_date", 'infinity'::timestamptz),"id") WHERE closed = false;--> statement-breakpoint
CREATE INDEX "markets_newest_rank_idx" ON "markets" USING btree ("first_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE closed = false;