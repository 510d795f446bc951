CREATE TABLE "market_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"market_a" uuid NOT NULL,
	"market_b" uuid NOT NULL,
	"relation" text NOT NULL,
	"confidence" double precision NOT NULL,
	"reasoning" text NOT NULL,
	"engine_version" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_confirmed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_to" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "match_features" (
	"market_id" uuid PRIMARY KEY NOT NULL,
	"venue" text NOT NULL,
	"fingerprint" text NOT NULL,
	"keys" text[] NOT NULL,
	"features" jsonb NOT NULL,
	"engine_version" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "market_matches" ADD CONSTRAINT "market_matches_market_a_markets_id_fk" FOREIGN KEY ("market_a") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_matches" ADD CONSTRAINT "market_matches_market_b_markets_id_fk" FOREIGN KEY ("market_b") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_features" ADD CONSTRAINT "match_features_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_matches_current_pair_idx" ON "market_matches" USING btree ("market_a","market_b") WHERE valid_to is null;--> statement-breakpoint
CREATE INDEX "market_matches_b_current_idx" ON "market_matches" USING btree ("market_b") WHERE valid_to is null;--> statement-breakpoint
CREATE INDEX "market_matches_a_history_idx" ON "market_matches" USING btree ("market_a","valid_from");--> statement-breakpoint
CREATE INDEX "market_matches_b_history_idx" ON "market_matches" USING btree ("market_b","valid_from");--> statement-breakpoint
CREATE INDEX "market_matches_relation_current_idx" ON "market_matches" USING btree ("relation","confidence" DESC NULLS LAST) WHERE valid_to is null;--> statement-breakpoint
CREATE INDEX "match_features_keys_idx" ON "match_features" USING gin ("keys");