CREATE TABLE "match_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"market_a" uuid NOT NULL,
	"market_b" uuid NOT NULL,
	"verdict" text,
	"proposed" text,
	"relation" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"reviewer" text,
	"reviewed_at" timestamp with time zone,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "match_reviews" ADD CONSTRAINT "match_reviews_market_a_markets_id_fk" FOREIGN KEY ("market_a") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_reviews" ADD CONSTRAINT "match_reviews_market_b_markets_id_fk" FOREIGN KEY ("market_b") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "match_reviews_pair_idx" ON "match_reviews" USING btree ("market_a","market_b");--> statement-breakpoint
CREATE INDEX "match_reviews_pending_idx" ON "match_reviews" USING btree ("created_at") WHERE verdict is null;