CREATE TABLE "market_fees" (
	"venue" text NOT NULL,
	"venue_market_id" text NOT NULL,
	"versions" jsonb NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"error" text,
	CONSTRAINT "market_fees_venue_venue_market_id_pk" PRIMARY KEY("venue","venue_market_id")
);
