CREATE TABLE "market_settlement_fields" (
	"market_id" uuid PRIMARY KEY NOT NULL,
	"fields" jsonb NOT NULL,
	"hash" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "market_settlement_fields" ADD CONSTRAINT "market_settlement_fields_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;