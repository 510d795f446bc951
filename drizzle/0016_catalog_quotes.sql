CREATE TABLE "event_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"volume24h" double precision DEFAULT 0 NOT NULL,
	"volume" double precision,
	"liquidity" double precision,
	"quoted_at" timestamp with time zone DEFAULT now() NOT NULL
) WITH (fillfactor = 50);
--> statement-breakpoint
CREATE TABLE "market_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"outcomes" jsonb NOT NULL,
	"volume24h" double precision DEFAULT 0 NOT NULL,
	"volume" double precision,
	"liquidity" double precision,
	"open_interest" double precision,
	"quoted_at" timestamp with time zone DEFAULT now() NOT NULL
) WITH (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "event_quotes" ADD CONSTRAINT "event_quotes_id_events_id_fk" FOREIGN KEY ("id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_quotes" ADD CONSTRAINT "market_quotes_id_markets_id_fk" FOREIGN KEY ("id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "event_quotes" ("id", "volume24h", "volume", "liquidity", "quoted_at")
	SELECT "id", "volume24h", "volume", "liquidity", "last_seen_at" FROM "events";--> statement-breakpoint
INSERT INTO "market_quotes" ("id", "outcomes", "volume24h", "volume", "liquidity", "open_interest", "quoted_at")
	SELECT "id", "outcomes", "volume24h", "volume", "liquidity", "open_interest", "last_seen_at" FROM "markets";--> statement-breakpoint
UPDATE "events" SET "content_hash" = '' WHERE "content_hash" IS NOT NULL;--> statement-breakpoint
UPDATE "markets" SET "content_hash" = CASE WHEN "content_hash" IS NULL THEN NULL ELSE '' END, "outcomes" = (
	SELECT coalesce(jsonb_agg(jsonb_build_object('outcomeId', o.value -> 'outcomeId', 'label', o.value -> 'label') ORDER BY o.ordinality), '[]'::jsonb)
	FROM jsonb_array_elements("markets"."outcomes") WITH ORDINALITY AS o
);--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "volume";--> statement-breakpoint
ALTER TABLE "markets" DROP COLUMN "volume";--> statement-breakpoint
ALTER TABLE "markets" DROP COLUMN "open_interest";
