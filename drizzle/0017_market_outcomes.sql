CREATE TABLE "market_outcomes" (
	"venue" text NOT NULL,
	"venue_market_id" text NOT NULL,
	"market" text NOT NULL,
	"outcome_ids" text[] NOT NULL,
	"state" text NOT NULL,
	"venue_state" text,
	"winning_outcome_id" text,
	"settlement_value" double precision,
	"closed_at" timestamp (3) with time zone,
	"determined_at" timestamp (3) with time zone,
	"settled_at" timestamp (3) with time zone,
	"venue_time" timestamp (3) with time zone NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	"source" text NOT NULL,
	"resolution_source" text,
	"changes" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "market_outcomes_venue_venue_market_id_pk" PRIMARY KEY("venue","venue_market_id"),
	CONSTRAINT "market_outcomes_state_check" CHECK ("market_outcomes"."state" in ('open', 'closed', 'proposed', 'disputed', 'determined', 'settled', 'voided', 'unknown')),
	CONSTRAINT "market_outcomes_source_check" CHECK ("market_outcomes"."source" in ('rest', 'historical', 'push', 'catalog', 'synthetic'))
);
--> statement-breakpoint
CREATE INDEX "market_outcomes_market_idx" ON "market_outcomes" USING btree ("market","venue");--> statement-breakpoint
CREATE INDEX "market_outcomes_resolved_closed_idx" ON "market_outcomes" USING btree ("closed_at","venue","venue_market_id") WHERE state in ('determined', 'settled');