-- The keyed-request hot path on PostgreSQL (lib/http/admission.ts).
--
-- Rate-limit counters are counted on every API request and are worthless after a minute: keep
-- them out of the WAL, so a request never waits for a durable commit. A crash empties the table,
-- which only resets the current windows.
ALTER TABLE "rate_limits" SET UNLOGGED;
--> statement-breakpoint
-- Admits one keyed request: resolves an active key's account and plan and counts the request in
-- the key's window, in one round trip. PL/pgSQL keeps both statements' plans for the session, so
-- the call costs no planning; drizzle sends ad-hoc statements unprepared.
CREATE OR REPLACE FUNCTION brier_admit_key(p_hash text, p_window timestamptz)
RETURNS TABLE (key_id uuid, account_id uuid, plan text, hits integer)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT k.id, k.account_id, a.plan INTO key_id, account_id, plan
  FROM api_keys k JOIN accounts a ON a.id = k.account_id
  WHERE k.hash = p_hash AND k.revoked_at IS NULL
  LIMIT 1;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO rate_limits AS r (bucket, window_start, count)
  VALUES ('key:' || key_id, p_window, 1)
  ON CONFLICT (bucket, window_start) DO UPDATE SET count = r.count + 1
  RETURNING r.count INTO hits;
  RETURN NEXT;
END
$$;
