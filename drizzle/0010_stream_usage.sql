CREATE TABLE "stream_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"key_id" uuid,
	"surface" text NOT NULL,
	"stream_seconds" double precision NOT NULL,
	"messages" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stream_usage_key_id_created_at_idx" ON "stream_usage" USING btree ("key_id","created_at");--> statement-breakpoint
CREATE INDEX "stream_usage_account_id_created_at_idx" ON "stream_usage" USING btree ("account_id","created_at");