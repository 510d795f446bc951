CREATE TABLE "recorder_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"assets" text[] DEFAULT '{}' NOT NULL,
	"message" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recorder_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"mode" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"beat_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"counters" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recorder_incidents" ADD CONSTRAINT "recorder_incidents_run_id_recorder_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."recorder_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recorder_incidents_started_at_idx" ON "recorder_incidents" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recorder_incidents_kind_started_at_idx" ON "recorder_incidents" USING btree ("kind","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recorder_incidents_assets_idx" ON "recorder_incidents" USING gin ("assets");--> statement-breakpoint
CREATE INDEX "recorder_runs_started_at_idx" ON "recorder_runs" USING btree ("started_at" DESC NULLS LAST);