-- brier_admit_key also returns the account's email, so GET /v0/account needs no second query.
DROP FUNCTION IF EXISTS brier_admit_key(text, timestamptz);
--> statement-breakpoint
CREATE FUNCTION brier_admit_key(p_hash text, p_window timestamptz)
RETURNS TABLE (key_id uuid, account_id uuid, email text, plan text, hits integer)
LANGUAGE plpgsql AS $$
BEGIN
  SELECT k.id, k.account_id, a.email, a.plan INTO key_id, account_id, email, plan
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
