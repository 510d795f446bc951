CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"venue" text NOT NULL,
	"venue_event_id" text NOT NULL,
	"title" text NOT NULL,
	"slug" text,
	"description" text,
	"category" text NOT NULL,
	"venue_category" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"image" text,
	"url" text,
	"volume24h" double precision DEFAULT 0 NOT NULL,
	"volume" double precision,
	"closed" boolean DEFAULT false NOT NULL,
	"resolution_date" timestamp with time zone,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_leases" (
	"venue" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"venue" text NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"events_seen" integer DEFAULT 0 NOT NULL,
	"markets_seen" integer DEFAULT 0 NOT NULL,
	"markets_closed" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"venue" text NOT NULL,
	"venue_market_id" text NOT NULL,
	"title" text NOT NULL,
	"slug" text,
	"description" text,
	"category" text NOT NULL,
	"outcomes" jsonb NOT NULL,
	"outcome_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"volume24h" double precision DEFAULT 0 NOT NULL,
	"volume" double precision,
	"liquidity" double precision,
	"open_interest" double precision,
	"status" text,
	"closed" boolean DEFAULT false NOT NULL,
	"resolution_date" timestamp with time zone,
	"contract_address" text,
	"url" text,
	"image" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_venue_event_id_venue_idx" ON "events" USING btree ("venue_event_id","venue");--> statement-breakpoint
CREATE INDEX "events_rank_idx" ON "events" USING btree ("volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_venue_rank_idx" ON "events" USING btree ("venue","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_category_rank_idx" ON "events" USING btree ("category","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_slug_idx" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "events_title_trgm_idx" ON "events" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "events_slug_trgm_idx" ON "events" USING gin ("slug" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ingest_runs_venue_started_at_idx" ON "ingest_runs" USING btree ("venue","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "markets_venue_market_id_venue_idx" ON "markets" USING btree ("venue_market_id","venue");--> statement-breakpoint
CREATE INDEX "markets_rank_idx" ON "markets" USING btree ("volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "markets_venue_rank_idx" ON "markets" USING btree ("venue","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "markets_category_rank_idx" ON "markets" USING btree ("category","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "markets_category_venue_rank_idx" ON "markets" USING btree ("category","venue","volume24h" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "markets_event_id_idx" ON "markets" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "markets_slug_idx" ON "markets" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "markets_contract_address_idx" ON "markets" USING btree ("contract_address");--> statement-breakpoint
CREATE INDEX "markets_outcome_ids_idx" ON "markets" USING gin ("outcome_ids");--> statement-breakpoint
CREATE INDEX "markets_title_trgm_idx" ON "markets" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "markets_slug_trgm_idx" ON "markets" USING gin ("slug" gin_trgm_ops);