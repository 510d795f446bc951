ALTER TABLE "events" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "content_hash" text;