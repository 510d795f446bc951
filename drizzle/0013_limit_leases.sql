CREATE TABLE "limit_leases" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"holder" text NOT NULL,
	"weight" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "limit_leases_bucket_idx" ON "limit_leases" USING btree ("bucket");--> statement-breakpoint
CREATE INDEX "limit_leases_holder_idx" ON "limit_leases" USING btree ("holder");--> statement-breakpoint
CREATE INDEX "limit_leases_expires_at_idx" ON "limit_leases" USING btree ("expires_at");--> statement-breakpoint
-- Takes `p_weight` units of a per-key limit for one instance, if the bucket's live leases leave
-- room: one round trip, serialised per bucket by a transaction-scoped advisory lock (two instances
-- taking the last unit at once: one gets it). Each statement of a PL/pgSQL function reads a fresh
-- snapshot, so the sum sees every lease committed before the lock was granted. Expired leases (a
-- killed instance's) are deleted on the way. Answers whether it was taken and what was held before.
CREATE OR REPLACE FUNCTION brier_take_lease(p_bucket text, p_id text, p_holder text, p_weight integer, p_limit integer, p_ttl_ms integer)
RETURNS TABLE (taken boolean, held integer)
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('brier_take_lease:' || p_bucket, 0));
  DELETE FROM limit_leases l WHERE l.bucket = p_bucket AND l.expires_at <= clock_timestamp();
  SELECT coalesce(sum(l.weight), 0)::integer INTO held FROM limit_leases l WHERE l.bucket = p_bucket;
  taken := held + p_weight <= p_limit;
  IF taken THEN
    INSERT INTO limit_leases (id, bucket, holder, weight, expires_at)
    VALUES (p_id, p_bucket, p_holder, p_weight, clock_timestamp() + make_interval(secs => p_ttl_ms / 1000.0));
  END IF;
  RETURN NEXT;
END
$$;
